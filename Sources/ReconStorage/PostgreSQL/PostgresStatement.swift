import AppleData
import NIOCore
import PostgresNIO
import ReconModel

/// One prepared statement on PostgreSQL, stepped as SQLite's are: bind, step row by row, reset.
///
/// A query is read through a server-side cursor, a batch at a time, so a scan of the ledger holds one batch, not the
/// ledger. Outside a transaction the cursor is `WITH HOLD`: the server keeps its rows until it is closed.
/// A statement that returns no rows runs at its first step. The cursor's next batch is asked for as soon as the last
/// one arrives, so the server reads it while this process works through the last.
package final class PostgresStatement: StoreStatement {
    private let session: PostgresSession
    /// The statement, as written.
    package let sql: String
    private var values: [SQLValue]
    private var result: PostgresResult?
    private var position = -1
    /// The open cursor reading this statement's rows, and whether it has more.
    private var cursor: String?
    private var cursorHasMore = false
    /// The transaction the cursor lives in (``PostgresSession/transactionSerial``), or nil for a `WITH HOLD` one,
    /// which lives until it is closed.
    private var cursorTransaction: Int?
    /// Whether the statement returns rows (read through a cursor in a transaction).
    private let isQuery: Bool
    /// An INSERT whose rows go together inside a transaction, as its writer declared it; nil for any other statement.
    private let template: RowInsert?
    private let serial: Int
    /// Whether its last run read all its rows in the cursor's first batch: it then runs as a plain query, one
    /// round trip (a lookup of one group's rows), until a run returns a batch's worth.
    private var small = false
    /// The next batch, asked for and not yet read.
    private var prefetch: EventLoopFuture<PostgresQueryResult>?

    /// Rows of the first batch a cursor reads, and of every later one.
    private static let firstBatch = 500
    private static let batch = 10_000

    /// The statement `sql`, or the INSERT `insert` declares (``RowInsert/sql``), whose rows are then sent together.
    package init(session: PostgresSession, sql: String, insert: RowInsert? = nil) {
        self.session = session
        self.sql = insert?.sql ?? sql
        values = Array(repeating: .null, count: Self.parameterCount(sql))
        let head = sql.prefix(12).uppercased()
        isQuery = head.hasPrefix("SELECT") || head.hasPrefix("WITH") || head.hasPrefix("VALUES")
        template = insert
        serial = session.nextStatementSerial()
    }

    /// How many parameters `sql` takes: its largest `$n`.
    static func parameterCount(_ sql: String) -> Int {
        var largest = 0
        var number: Int?
        for byte in sql.utf8 {
            if byte == UInt8(ascii: "$") {
                number = 0
            } else if let current = number, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                number = current * 10 + Int(byte - UInt8(ascii: "0"))
            } else {
                if let current = number { largest = max(largest, current) }
                number = nil
            }
        }
        if let current = number { largest = max(largest, current) }
        return largest
    }

    deinit {
        if let cursor, isOpen { session.send("CLOSE \(cursor)") }
    }

    /// The result columns' names (once the statement has run).
    package var columns: [String] { result?.columns ?? [] }

    package func bind(_ values: [SQLValue]) throws(StoreError) {
        reset()
        for index in self.values.indices { self.values[index] = index < values.count ? values[index] : .null }
    }

    /// Binds the parameter `$number`.
    package func bind(_ value: SQLValue, at number: Int32) throws(StoreError) {
        if result != nil { reset() }
        let index = Int(number)
        guard index >= 1 else { return }
        while values.count < index { values.append(.null) }
        values[index - 1] = value
    }

    package func bindInt64(_ value: Int64, at index: Int32) throws(StoreError) {
        try bind(.integer(value), at: index)
    }

    package func bindNull(at index: Int32) throws(StoreError) {
        try bind(.null, at: index)
    }

    /// Binds the text's bytes, copied into a string: the values go to the server as they are.
    package func bindText(_ pointer: UnsafePointer<UInt8>, count: Int, at index: Int32) throws(StoreError) {
        try bind(.text(String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)), at: index)
    }

    package func bindText(_ text: String, at index: Int32) throws(StoreError) {
        try bind(.text(text), at: index)
    }

    package func runBound() throws(StoreError) {
        defer { reset() }
        while try step() {}
    }

    /// The texts bound as the strings they are (the values are sent to the server), then run.
    package func runBinding(texts: [(text: String, at: Int32)]) throws(StoreError) {
        for (text, index) in texts { try bindText(text, at: index) }
        try runBound()
    }

    private var lookup = ColumnLookup()

    package func beginRow() {
        lookup.beginRow()
    }

    package func index(of name: String) -> Int32 {
        lookup.index(of: name) { columns }
    }

    package func isNull(_ column: Int32) -> Bool {
        value(column) == .null
    }

    package func textMatches(_ column: Int32, _ other: String) -> Bool {
        text(column) == other
    }

    /// The ``RowHash`` of the text of `column` under `seed`, of its string's UTF-8.
    package func textHash(_ column: Int32, seed: UInt64) -> UInt64 {
        var text = text(column)
        return text.withUTF8 { RowHash.hash(UnsafeRawBufferPointer($0), seed: seed) }
    }

    /// Ready to run again with the same bindings.
    package func reset() {
        prefetch = nil
        if let cursor {
            if isOpen { session.send("CLOSE \(cursor)") }
            self.cursor = nil
        }
        result = nil
        position = -1
        cursorHasMore = false
    }

    /// Advances; true while a row is available.
    @discardableResult
    package func step() throws(StoreError) -> Bool {
        if result == nil, let template, session.inTransaction {
            try session.enqueue(template, owner: serial, values: values)
            return false
        }
        if result == nil { try start() } else { position += 1 }
        guard let rowCount = result?.rowCount else { return false }
        if position < rowCount { return true }
        guard cursorHasMore, let cursor else { return false }
        let fetch = "FETCH FORWARD \(Self.batch) FROM \(cursor)"
        let next: PostgresResult
        if let asked = prefetch {
            prefetch = nil
            next = try session.answer(asked, sql: fetch, context: "reading a statement")
        } else {
            next = try session.query(fetch, [], context: "reading a statement")
        }
        cursorHasMore = next.rowCount == Self.batch
        if cursorHasMore { prefetch = session.ask(fetch) }
        result?.replaceRows(with: next)
        position = 0
        return next.rowCount > 0
    }

    private func start() throws(StoreError) {
        position = 0
        if isQuery, !small, !session.readsWhole {
            let name = session.nextCursorName()
            let hold = session.inTransaction ? "" : " WITH HOLD"
            _ = try session.query(
                "DECLARE \(name) NO SCROLL CURSOR\(hold) FOR \(sql)", values, context: "running a query")
            cursor = name
            cursorTransaction = session.inTransaction ? session.transactionSerial : nil
            let first = try session.query(
                "FETCH FORWARD \(Self.firstBatch) FROM \(name)", [], context: "reading a query")
            cursorHasMore = first.rowCount == Self.firstBatch
            small = !cursorHasMore
            if cursorHasMore { prefetch = session.ask("FETCH FORWARD \(Self.batch) FROM \(name)") }
            result = first
        } else {
            let whole = try session.query(sql, values, context: "running a statement")
            if small, whole.rowCount >= Self.firstBatch { small = false }
            result = whole
        }
    }

    /// Whether the cursor still exists: a `WITH HOLD` one until it is closed, another until its transaction ends.
    private var isOpen: Bool {
        guard let transaction = cursorTransaction else { return true }
        return session.inTransaction && session.transactionSerial == transaction
    }

    /// The current row's value in `column`.
    package func value(_ column: Int32) -> SQLValue {
        result?.value(row: position, column: Int(column)) ?? .null
    }

    /// As SQLite reads a value as an integer: NULL is 0, a text its leading number.
    package func int64(_ column: Int32) -> Int64 {
        switch value(column) {
        case .null: return 0
        case .integer(let number): return number
        case .text(let text): return Int64(text) ?? 0
        }
    }

    /// As SQLite reads a value as text: NULL is empty, an integer its digits.
    package func text(_ column: Int32) -> String {
        switch value(column) {
        case .null: return ""
        case .integer(let number): return String(number)
        case .text(let text): return text
        }
    }
}

@available(*, unavailable)
extension PostgresStatement: Sendable {}
