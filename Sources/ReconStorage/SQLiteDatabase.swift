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

    /// Runs one or more statements without results.
    package func execute(_ sql: String, context: @autoclosure () -> String = "running SQL") throws(StoreError) {
        if let postgres {
            for statement in SQLToken.split(sql) {
                try postgres.execute(statement, context: context())
            }
            return
        }
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

/// A compiled statement.
///
/// Owns the `sqlite3_stmt*` and finalizes it in `deinit`.
package final class SQLiteStatement {
    package let handle: OpaquePointer!
    /// The statement when the store is in PostgreSQL; then `handle` is nil.
    package let postgres: PostgresStatement?
    // Keeps the connection alive as long as the statement.
    package let database: SQLiteDatabase

    fileprivate init(handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
        postgres = nil
        slots = Self.slots(of: handle)
    }

    /// SQLite's index of each parameter `$n`, at `n - 1` (0 where the statement does not name `$n`).
    ///
    /// SQLite reads `$1` as a named parameter and numbers named parameters in the order they first appear, so a
    /// statement that says `$2` before `$1` binds by these, not by position.
    private let slots: [Int32]

    /// SQLite's index of the parameter `$number`.
    func slot(_ number: Int32) throws(StoreError) -> Int32 {
        guard number >= 1, Int(number) <= slots.count, slots[Int(number) - 1] != 0 else {
            throw .sqlite(
                code: SQLITE_RANGE, message: "the statement has no $\(number)", context: "binding a parameter")
        }
        return slots[Int(number) - 1]
    }

    private static func slots(of handle: OpaquePointer) -> [Int32] {
        var slots: [Int32] = []
        let count = sqlite3_bind_parameter_count(handle)
        guard count > 0 else { return [] }
        for index in 1...count {
            guard let name = sqlite3_bind_parameter_name(handle, index).map({ String(cString: $0) }),
                name.first == "$", let number = Int(name.dropFirst()), number >= 1
            else {
                // `?` or `?NNN`: its position is its number.
                while slots.count < Int(index) { slots.append(0) }
                slots[Int(index) - 1] = index
                continue
            }
            while slots.count < number { slots.append(0) }
            slots[number - 1] = index
        }
        return slots
    }

    fileprivate init(postgres: PostgresStatement, database: SQLiteDatabase) {
        handle = nil
        self.postgres = postgres
        self.database = database
        slots = []
    }

    deinit {
        if let handle { sqlite3_finalize(handle) }
    }

    /// Resets the statement and binds `values` to parameters 1…n.
    package func bind(_ values: [SQLiteValue]) throws(StoreError) {
        if let postgres { return postgres.bind(values) }
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value to the parameter `$index`.
    package func bind(_ value: SQLiteValue, at number: Int32) throws(StoreError) {
        if let postgres { return postgres.bind(value, at: Int(number)) }
        let index = try slot(number)
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let number): rc = sqlite3_bind_int64(handle, index, number)
        case .text(let text):
            rc = sqlite3_bind_text(handle, index, text, -1, iaprecon_sqlite_transient())
        }
        if rc != SQLITE_OK {
            throw .sqlite(code: rc, message: database.lastErrorMessage, context: "binding parameter \(index)")
        }
    }

    /// Advances; true while a row is available.
    @discardableResult
    package func step() throws(StoreError) -> Bool {
        if let postgres { return try postgres.step() }
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let message = database.lastErrorMessage
            sqlite3_reset(handle)
            throw .sqlite(code: rc, message: message, context: "executing a statement")
        }
    }

    /// Binds `values` and runs to completion.
    package func run(_ values: [SQLiteValue]) throws(StoreError) {
        try bind(values)
        while try step() {}
    }

    /// Result columns by name (the `AS` name, else the column's own name); a name two result
    /// columns share maps to `ambiguousColumn`.
    private lazy var columnIndexes: [String: Int32] = {
        var indexes: [String: Int32] = [:]
        if let postgres {
            for (index, key) in postgres.columns.enumerated() {
                indexes[key] = indexes[key] == nil ? Int32(index) : Self.ambiguousColumn
            }
            return indexes
        }
        for index in 0..<sqlite3_column_count(handle) {
            guard let name = sqlite3_column_name(handle, index) else { continue }
            let key = String(cString: name)
            indexes[key] = indexes[key] == nil ? index : Self.ambiguousColumn
        }
        return indexes
    }()

    private static let ambiguousColumn: Int32 = -1

    /// The lookups made since ``beginRow()``, in the order they were made.
    ///
    /// A row type reads every row of a statement by asking for the same columns in the same
    /// order, so the n-th lookup of a row is almost always the n-th lookup of the row before: it
    /// costs one string comparison (equal literals compare by their storage first) instead of a
    /// hash of the name. A lookup that does not match is resolved by name and replaces the entry,
    /// so the answer never depends on the order.
    private var rowLookups: [(name: String, index: Int32)] = []
    private var rowLookupCursor = 0
    /// Lookups remembered per row; a caller that never starts rows does not grow the list.
    private static let rememberedLookups = 64

    /// Starts reading the statement's current row by column names (``SQLiteRow`` calls it).
    package func beginRow() {
        rowLookupCursor = 0
    }

    /// The index of the result column called `name`.
    ///
    /// A name the statement does not return, or returns twice, is a mistake in our SQL, not in the data.
    package func index(of name: String) -> Int32 {
        let position = rowLookupCursor
        rowLookupCursor += 1
        if position < rowLookups.count, rowLookups[position].name == name { return rowLookups[position].index }
        guard let index = columnIndexes[name], index != Self.ambiguousColumn else {
            preconditionFailure("result column '\(name)' is missing or ambiguous")
        }
        if position < rowLookups.count {
            rowLookups[position] = (name, index)
        } else if position == rowLookups.count, position < Self.rememberedLookups {
            rowLookups.append((name, index))
        }
        return index
    }

    package func isNull(_ column: Int32) -> Bool {
        if let postgres { return postgres.value(column) == .null }
        return sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    package func int64(_ column: Int32) -> Int64 {
        if let postgres { return postgres.int64(column) }
        return sqlite3_column_int64(handle, column)
    }

    package func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    package func text(_ column: Int32) -> String {
        if let postgres { return postgres.text(column) }
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    package func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    /// Whether the text of `column` is `other`, byte for byte (without making a string of it).
    package func textMatches(_ column: Int32, _ other: String) -> Bool {
        if let postgres { return postgres.text(column) == other }
        guard let pointer = sqlite3_column_text(handle, column) else { return other.isEmpty }
        let count = Int(sqlite3_column_bytes(handle, column))
        var other = other
        return other.withUTF8 { bytes in
            guard bytes.count == count, let base = bytes.baseAddress else { return bytes.count == count }
            return memcmp(base, pointer, count) == 0
        }
    }
}

@available(*, unavailable)
extension SQLiteStatement: Sendable {}
