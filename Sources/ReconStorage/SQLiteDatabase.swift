import AppleData
import CSQLite
import Foundation
import ReconModel

/// A value bound to or read from an SQLite statement.
package enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)
}

/// The store's one connection: to an SQLite file, or to a PostgreSQL database (``PostgresSession``).
///
/// Both run the same statements, written once in the SQL both read (``SQLDialect``); nothing rewrites them.
///
/// Owns the `sqlite3*` handle and closes it in `deinit`.
///
/// Not Sendable: one connection is used by one task at a time, as SQLite intends.
package final class SQLiteDatabase {
    package typealias Handle = OpaquePointer

    package let path: String
    private let handle: Handle!
    /// The connection when the store is in PostgreSQL; nil for an SQLite file.
    package let postgres: PostgresSession?
    /// The words the two engines say differently (``SQLDialect``).
    package let dialect: SQLDialect

    /// A store in PostgreSQL, over `session`; `path` names it (never with its password).
    package init(postgres session: PostgresSession) {
        path = session.name
        handle = nil
        postgres = session
        dialect = .postgres
    }

    /// Opens (creating if needed) the database at `path`.
    ///
    /// - Parameters:
    ///   - path: the file; created with mode 0600 when absent.
    ///   - readOnly: open with `SQLITE_OPEN_READONLY` and `PRAGMA query_only`: never creates the
    ///     file, never writes (https://www.sqlite.org/c3ref/open.html).
    /// - Throws: ``StoreError/cannotOpen(path:message:)``.
    package init(path: String, readOnly: Bool = false) throws(StoreError) {
        self.path = path
        postgres = nil
        dialect = .sqlite
        if !readOnly, path != ":memory:", !FileManager.default.fileExists(atPath: path) {
            // Create the file ourselves so its mode is 0600 from the first byte.
            let fd = open(path, O_CREAT | O_WRONLY | O_EXCL, 0o600)
            if fd < 0, errno != EEXIST {
                throw .cannotOpen(path: path, message: String(cString: strerror(errno)))
            }
            if fd >= 0 { close(fd) }
        }
        var db: Handle?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw .cannotOpen(path: path, message: message)
        }
        handle = db
        sqlite3_busy_timeout(db, 5_000)
        sqlite3_extended_result_codes(db, 1)
        if readOnly {
            // A second guard: even a statement that slips through cannot change the file.
            try execute("PRAGMA query_only = 1", context: "opening '\(path)' read-only")
        }
    }

    deinit {
        if let handle { sqlite3_close_v2(handle) }
    }

    /// Runs `statements` without results, one after another.
    package func execute(_ statements: [String], context: @autoclosure () -> String = "running SQL") throws(StoreError)
    {
        for statement in statements { try execute(statement, context: context()) }
    }

    /// Runs one statement without results; on SQLite, a script of several (a migration's, an index list), which
    /// PostgreSQL, one statement per message, is never given.
    package func execute(_ sql: String, context: @autoclosure () -> String = "running SQL") throws(StoreError) {
        if let postgres { return try postgres.execute(sql, context: context()) }
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorMessage)
            throw .sqlite(code: rc, message: message, context: context())
        }
    }

    /// Sets SQLite's `PRAGMA` `setting` (`name = value`, one or more joined by `;`); PostgreSQL has none of these and
    /// its store is left as it is.
    package func pragma(_ setting: String, context: @autoclosure () -> String = "setting up SQLite") throws(StoreError)
    {
        guard dialect == .sqlite else { return }
        try execute(
            setting.split(separator: ";").map { "PRAGMA " + $0.trimmingCharacters(in: .whitespaces) }.joined(
                separator: ";"),
            context: context())
    }

    /// Compiles `sql` into a reusable statement.
    package func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
        if let postgres {
            return SQLiteStatement(
                postgres: PostgresStatement(session: postgres, sql: sql), database: self)
        }
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw .sqlite(code: rc, message: lastErrorMessage, context: "preparing a statement")
        }
        return SQLiteStatement(handle: stmt, database: self)
    }

    /// Compiles the INSERT `insert` declares: on PostgreSQL, its rows in a transaction go together (``RowInsert``).
    package func prepare(_ insert: RowInsert) throws(StoreError) -> SQLiteStatement {
        if let postgres {
            return SQLiteStatement(
                postgres: PostgresStatement(session: postgres, sql: insert.sql, insert: insert), database: self)
        }
        return try prepare(insert.sql)
    }

    /// Whether the store is on a Citus cluster (``CitusLayout``): the writers then note what the reference tables'
    /// triggers note elsewhere.
    package var isCitus: Bool { postgres?.isCitus ?? false }

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

    /// Runs `body` inside one read transaction (`BEGIN DEFERRED … COMMIT`), so every query in
    /// it sees the same committed state, even while a writer is mid-transaction (WAL).
    package func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute(dialect.beginRead, context: "starting a read transaction")
        defer { try? execute("COMMIT") }
        return try body()
    }

    /// The row id of the last successful INSERT.
    package var lastInsertRowID: Int64 {
        precondition(postgres == nil, "PostgreSQL has no last row id: the INSERT must say RETURNING")
        return sqlite3_last_insert_rowid(handle)
    }

    /// Whether a transaction is open on this connection (`sqlite3_get_autocommit` is off).
    package var isInTransaction: Bool {
        if let postgres { return postgres.inTransaction }
        return sqlite3_get_autocommit(handle) == 0
    }

    /// Rows changed by the last statement.
    package var changes: Int {
        precondition(postgres == nil, "rows changed are counted with RETURNING on PostgreSQL")
        return Int(sqlite3_changes(handle))
    }

    package var lastErrorMessage: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "" }

    /// Whether the store has a table called `name`.
    package func tableExists(_ name: String) throws(StoreError) -> Bool {
        let sql =
            postgres == nil
            ? "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = $1"
            : "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1"
        return try scalar(sql, [.text(name)]) ?? 0 > 0
    }

    /// Runs an INSERT of one row and returns its `column` (an id the database chose), by `RETURNING`: the one
    /// way both SQLite and PostgreSQL say it.
    package func insert(_ sql: String, _ values: [SQLiteValue], returning column: String) throws(StoreError) -> Int64 {
        let stmt = try prepare(sql + " RETURNING " + column)
        try stmt.bind(values)
        guard try stmt.step() else {
            throw .sqlite(code: 0, message: "the INSERT returned no \(column)", context: "inserting a row")
        }
        let id = stmt.int64(0)
        while try stmt.step() {}
        return id
    }

    /// Runs `body` once per chunk of up to 500 of the distinct `values`, with the chunk's parameters (`$1, $2, …`) and
    /// their values: a query's `IN (…)` asks for many keys in one round trip, so the support lookup is a few
    /// statements, not one per transaction.
    package func forEachChunk<Failure: Error>(
        of values: [String], _ body: (_ marks: String, _ values: [SQLiteValue]) throws(Failure) -> Void
    ) throws(Failure) {
        try forEachChunk(matching: [({ $0 }, values)], body)
    }

    /// Runs `body` once per chunk of up to 500 of the distinct values of all `columns`, with the condition that asks for
    /// them (`a IN ($1, $2) OR b IN ($3)`: each column's condition given its parameters) and their values: one
    /// statement where there would be one per column.
    package func forEachChunk<Failure: Error>(
        matching columns: [(condition: (String) -> String, values: [String])],
        _ body: (_ condition: String, _ values: [SQLiteValue]) throws(Failure) -> Void
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

    /// Runs a query and returns the first column of the first row as an integer.
    package func scalar(_ sql: String, _ values: [SQLiteValue] = []) throws(StoreError) -> Int64? {
        let stmt = try prepare(sql)
        try stmt.bind(values)
        guard try stmt.step() else { return nil }
        return stmt.optionalInt64(0)
    }
}

@available(*, unavailable)
extension SQLiteDatabase: Sendable {}
