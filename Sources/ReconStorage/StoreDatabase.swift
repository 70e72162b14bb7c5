import ReconModel

/// The store's one connection, whatever the engine: ``SQLiteDatabase`` over an SQLite file, ``PostgresDatabase`` over
/// a PostgreSQL database or a Citus cluster's coordinator.
///
/// The repositories are written once against this and ``StoreStatement``, in the SQL both engines read; what the
/// engines say differently is the ``dialect``. Each engine's connection is its own type: nothing here asks which
/// engine it is to decide how to run a statement.
///
/// Not Sendable: one connection is used by one task at a time.
package protocol StoreDatabase: AnyObject {
    /// The file, or the database's URL without its password: how errors name the store.
    var path: String { get }
    /// The words the two engines say differently.
    var dialect: SQLDialect { get }
    /// Whether the store is on a Citus cluster (``CitusLayout``): the writers then note what the reference tables'
    /// triggers note elsewhere.
    var isCitus: Bool { get }
    /// Whether a transaction is open on this connection.
    var isInTransaction: Bool { get }

    /// Runs one statement without results.
    func execute(_ sql: String, context: @autoclosure () -> String) throws(StoreError)
    /// Sets SQLite's `PRAGMA` `setting` (`name = value`, one or more joined by `;`); PostgreSQL has none of these and
    /// its store is left as it is.
    func pragma(_ setting: String, context: @autoclosure () -> String) throws(StoreError)
    /// Compiles `sql` into a reusable statement.
    func prepare(_ sql: String) throws(StoreError) -> any StoreStatement
    /// Compiles the INSERT `insert` declares; on PostgreSQL its rows in a transaction go together (``RowInsert``).
    func prepare(_ insert: RowInsert) throws(StoreError) -> any StoreStatement
    /// The INSERT `insert` declares, for many rows in one transaction that nothing reads before they are flushed
    /// (``StoreStatement/flush()``): on SQLite a ``SQLiteRowBatch``; on PostgreSQL as ``prepare(_:)-(RowInsert)``,
    /// whose rows go together already.
    func prepareRows(_ insert: RowInsert) throws(StoreError) -> any StoreStatement
    /// Whether the store has a table called `name`.
    func tableExists(_ name: String) throws(StoreError) -> Bool
}

extension StoreDatabase {
    /// Runs one statement without results.
    package func execute(_ sql: String) throws(StoreError) {
        try execute(sql, context: "running SQL")
    }

    /// Runs `statements` without results, one after another.
    package func execute(_ statements: [String], context: @autoclosure () -> String = "running SQL") throws(StoreError)
    {
        for statement in statements { try execute(statement, context: context()) }
    }

    package func pragma(_ setting: String) throws(StoreError) {
        try pragma(setting, context: "setting up SQLite")
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back when it throws.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        // PostgreSQL: one writer at a time is the advisory lock's work (``RunLock``), not the transaction's.
        try execute(dialect.beginWrite, context: "starting a transaction")
        do {
            let result = try body()
            try execute("COMMIT", context: "committing a transaction")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` inside one read transaction, so every query in it sees the same committed state, even while a
    /// writer is mid-transaction (SQLite's WAL, PostgreSQL's MVCC).
    package func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute(dialect.beginRead, context: "starting a read transaction")
        defer { try? execute("COMMIT") }
        return try body()
    }

    /// Runs an INSERT of one row and returns its `column` (an id the database chose), by `RETURNING`: the one
    /// way both SQLite and PostgreSQL say it.
    package func insert(_ sql: String, _ values: [SQLValue], returning column: String) throws(StoreError) -> Int64 {
        let stmt = try prepare(sql + " RETURNING " + column)
        try stmt.bind(values)
        guard try stmt.step() else {
            throw .sqlite(code: 0, message: "the INSERT returned no \(column)", context: "inserting a row")
        }
        let id = stmt.int64(0)
        while try stmt.step() {}
        return id
    }

    /// Runs a query and returns the first column of the first row as an integer.
    package func scalar(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) -> Int64? {
        let stmt = try prepare(sql)
        try stmt.bind(values)
        guard try stmt.step() else { return nil }
        return stmt.optionalInt64(0)
    }

    /// Runs `body` once per chunk of up to 500 of the distinct `values`, with the chunk's parameters (`$1, $2, …`) and
    /// their values: a query's `IN (…)` asks for many keys in one round trip, so the support lookup is a few
    /// statements, not one per transaction.
    package func forEachChunk<Failure: Error>(
        of values: [String], _ body: (_ marks: String, _ values: [SQLValue]) throws(Failure) -> Void
    ) throws(Failure) {
        try forEachChunk(matching: [({ $0 }, values)], body)
    }

    /// Runs `body` once per chunk of up to 500 of the distinct values of all `columns`, with the condition that asks for
    /// them (`a IN ($1, $2) OR b IN ($3)`: each column's condition given its parameters) and their values: one
    /// statement where there would be one per column.
    package func forEachChunk<Failure: Error>(
        matching columns: [(condition: (String) -> String, values: [String])],
        _ body: (_ condition: String, _ values: [SQLValue]) throws(Failure) -> Void
    ) throws(Failure) {
        var pairs: [(column: Int, value: String)] = []
        for (index, column) in columns.enumerated() {
            pairs += Array(Set(column.values)).sorted().map { (index, $0) }
        }
        var start = 0
        while start < pairs.count {
            let chunk = pairs[start..<min(start + 500, pairs.count)]
            start += chunk.count
            var conditions: [String] = []
            var number = 0
            for (index, column) in columns.enumerated() {
                let count = chunk.filter { $0.column == index }.count
                guard count > 0 else { continue }
                conditions.append(
                    column.condition(((number + 1)...(number + count)).map { "$\($0)" }.joined(separator: ", ")))
                number += count
            }
            try body(conditions.joined(separator: " OR "), chunk.map { .text($0.value) })
        }
    }
}
