import CSQLite
import ReconModel

/// The rows of one plain INSERT (``RowInsert``) bound straight into a statement of many rows, run when it is full;
/// ``flush()`` runs the rows bound since, however few.
///
/// A report that judges every transaction keeps two rows for nearly each (a revenue part, a kept sale), a million of
/// each at 1,000,000 rows, written on the thread that also reads the ledger. Run a row at a time, each row paid
/// SQLite's start and end of a statement (a transaction check, cursors opened and closed, the program reset); 64 rows
/// to a statement, judging the transactions of 1,000,000 rows took 9.2 s instead of 12.9 s. A statement writes
/// ``rowsPerRun`` rows:
/// `INSERT INTO t (…) SELECT * FROM (VALUES (…), (…), …) LIMIT $n`, `$n` the rows bound this time
/// (https://www.sqlite.org/lang_select.html#the_limit_clause), so the last, partial run needs no other statement.
///
/// The writer binds a row as it would bind a one-row statement: parameter `$i` of the row is parameter
/// `$(row × columns + i)` here. Texts are bound as copies (SQLite reuses each parameter's buffer); a row's rows are
/// in the table once ``flush()`` has run, so a reader of the table flushes first.
package final class SQLiteRowBatch: StoreStatement {
    private let statement: SQLiteStatement
    private let columns: Int32
    /// Rows a full run writes.
    package let rowsPerRun: Int
    /// Rows bound and not yet written.
    private var rows = 0
    /// The parameter of the LIMIT.
    private let limit: Int32

    /// The batch of `insert` (no constants, a conflict fails), `rowsPerRun` rows at a time.
    package init(_ insert: RowInsert, rowsPerRun: Int, database: SQLiteDatabase) throws(StoreError) {
        precondition(insert.onConflict == .fail && insert.constants.isEmpty, "a batch binds plain rows")
        precondition(rowsPerRun >= 1)
        let columns = insert.columns.count
        self.columns = Int32(columns)
        self.rowsPerRun = rowsPerRun
        limit = Int32(rowsPerRun * columns + 1)
        let values = (0..<rowsPerRun).map { row in
            "(" + (1...columns).map { "$\(row * columns + $0)" }.joined(separator: ", ") + ")"
        }
        statement = try database.prepareSQLite(
            "INSERT INTO \(insert.table) (\(insert.columns.joined(separator: ", "))) "
                + "SELECT * FROM (VALUES \(values.joined(separator: ", "))) LIMIT $\(limit)")
    }

    /// Parameter `number` of the row being bound.
    private func parameter(_ number: Int32) -> Int32 { Int32(rows) * columns + number }

    /// Binds `values` as the next row's and adds the row (as ``bind(_:at:)`` then ``runBound()``).
    package func bind(_ values: [SQLValue]) throws(StoreError) {
        for (offset, value) in values.enumerated() { try statement.bind(value, at: parameter(Int32(offset + 1))) }
    }

    package func bind(_ value: SQLValue, at number: Int32) throws(StoreError) {
        try statement.bind(value, at: parameter(number))
    }

    /// Adds the row bound: an INSERT returns no rows.
    @discardableResult package func step() throws(StoreError) -> Bool {
        try runBound()
        return false
    }

    /// Nothing to reset between rows: each row binds its own parameters.
    package func reset() {}

    package func bindInt64(_ value: Int64, at index: Int32) throws(StoreError) {
        try statement.bindInt64(value, at: parameter(index))
    }

    package func bindNull(at index: Int32) throws(StoreError) {
        try statement.bindNull(at: parameter(index))
    }

    /// Binds a copy of the bytes: they are read when the batch runs, after the caller's pointer may be gone.
    package func bindText(_ pointer: UnsafePointer<UInt8>, count: Int, at index: Int32) throws(StoreError) {
        try bindText(String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self), at: index)
    }

    package func bindText(_ text: String, at index: Int32) throws(StoreError) {
        try statement.bindText(text, at: parameter(index))
    }

    /// Adds the row bound; runs the batch once it is full.
    package func runBound() throws(StoreError) {
        rows += 1
        if rows == rowsPerRun { try run() }
    }

    package func runBinding(texts: [(text: String, at: Int32)]) throws(StoreError) {
        for (text, index) in texts { try bindText(text, at: index) }
        try runBound()
    }

    /// Writes the rows bound since the last run.
    package func flush() throws(StoreError) {
        if rows > 0 { try run() }
    }

    private func run() throws(StoreError) {
        defer { rows = 0 }
        try statement.bindInt64(Int64(rows), at: limit)
        try statement.runBound()
    }

    // An INSERT returns no rows to read.

    package func beginRow() {}

    package func index(of name: String) -> Int32 {
        preconditionFailure("an INSERT of rows has no result column '\(name)'")
    }

    package func isNull(_ column: Int32) -> Bool { preconditionFailure("an INSERT of rows returns no rows") }

    package func int64(_ column: Int32) -> Int64 { preconditionFailure("an INSERT of rows returns no rows") }

    package func text(_ column: Int32) -> String { preconditionFailure("an INSERT of rows returns no rows") }

    package func textMatches(_ column: Int32, _ other: String) -> Bool {
        preconditionFailure("an INSERT of rows returns no rows")
    }

    package func textHash(_ column: Int32, seed: UInt64) -> UInt64 {
        preconditionFailure("an INSERT of rows returns no rows")
    }
}
