import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO
import ReconModel

/// The store's one connection to PostgreSQL, used as SQLite's is: from one thread at a time, each call
/// waiting for its answer.
///
/// Every wait is on a future the connection's event loop completes, never on a task: a caller may block
/// a thread of the cooperative pool without needing another one. Every wait also ends when the
/// connection closes (the server stopped, the network went away), so a lost server is an error at
/// once, never a hang.
package final class PostgresSession {
    /// The server and database, without the password: how errors name it.
    package let name: String
    package let connection: PostgresConnection
    let logger: Logger
    /// Whether `BEGIN` was sent and neither `COMMIT` nor `ROLLBACK` since.
    package private(set) var inTransaction = false
    /// Whether the database has the `citus` extension: the store is then distributed (``CitusLayout``).
    package private(set) var isCitus = false
    /// Whether the store was opened read-only (`lookup`, `serve`): its queries read a user's or a transaction's rows,
    /// never the ledger, so each is one round trip, without a cursor.
    package var readsWhole = false
    /// How many transactions have begun: a cursor declared in one ends with it.
    package private(set) var transactionSerial = 0
    private var cursorSerial = 0
    /// The `COPY` sent last and not yet known to have succeeded (``copy(_:context:)``), with its statement and what
    /// it was for, for the message when it failed.
    var copyInFlight: (done: EventLoopFuture<Void>, sql: String, context: String)?

    /// Connects and logs in.
    ///
    /// - Throws: ``StoreError/cannotOpen(path:message:)`` naming the server (never the password).
    package init(_ source: DatabaseSource, logger: Logger) throws(StoreError) {
        name = source.name
        self.logger = logger
        do {
            connection = try PostgresConnector(source, logger: logger).connectWaiting()
        } catch {
            throw .cannotOpen(path: source.name, message: Self.connectMessage(error))
        }
        watchClose()
        try planForCachedPages()
    }

    /// Plans as for a store whose pages are mostly in memory, unless the server's administrator chose otherwise.
    ///
    /// PostgreSQL's default `random_page_cost` (4) prices a page read out of order as four read in order, a disk's
    /// cost: a night's few thousand ids joined with a million-row table then scan the table (a DELETE of the sales
    /// judged again: 0.97 s) rather than probe its index (0.29 s). PostgreSQL's documentation suggests a lower value
    /// when the data is likely cached, and 1.1 for storage with a low random read cost such as solid-state drives
    /// (https://www.postgresql.org/docs/current/runtime-config-query.html, `random_page_cost`). A value set in the
    /// server's configuration, for the database or for the role is left as it is.
    ///
    /// In the same statement: whether the database is a Citus cluster's (``isCitus``), and, on one, the change-noting
    /// triggers of the distributed tables allowed for this session alone (``CitusLayout``).
    private func planForCachedPages() throws(StoreError) {
        let answer = try query(
            """
            SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus,
                (SELECT set_config('random_page_cost', '1.1', false) FROM pg_settings
                    WHERE name = 'random_page_cost' AND source = 'default') AS page_cost
            """, [], context: "opening the store")
        isCitus = answer.value(row: 0, column: 0) == .integer(1)
        if isCitus {
            _ = try query(CitusLayout.sessionSettings, [], context: "opening the store")
        }
    }

    deinit {
        try? connection.close().wait()
    }

    private static func connectMessage(_ error: DatabaseSourceError) -> String {
        if case .connect(_, let message) = error { return message }
        return error.localizedDescription
    }

    /// A lost connection, as the wait for an answer sees it.
    package struct Closed: Error, CustomStringConvertible {
        package var description: String { "the server closed the connection" }
    }

    /// What the connection's close does to the wait in progress: fails it (one callback for the connection's life,
    /// not one per wait).
    private struct CloseWatch {
        var closed = false
        var failWait: (@Sendable () -> Void)?
    }

    private let closeWatch = NIOLockedValueBox(CloseWatch())

    /// Registers the one close callback.
    private func watchClose() {
        let watch = closeWatch
        connection.closeFuture.whenComplete { _ in
            let fail = watch.withLockedValue { state -> (@Sendable () -> Void)? in
                state.closed = true
                return state.failWait
            }
            fail?()
        }
    }

    /// Waits for `future`, or fails with ``Closed`` once the connection closes first.
    func wait<T: Sendable>(_ future: EventLoopFuture<T>) throws -> T {
        let promise = future.eventLoop.makePromise(of: T.self)
        let done = NIOLockedValueBox(false)
        future.whenComplete { result in
            if done.withLockedValue({
                let was = $0; $0 = true; return !was
            }) {
                promise.completeWith(result)
            }
        }
        let closedAlready = closeWatch.withLockedValue { state -> Bool in
            state.failWait = {
                if done.withLockedValue({
                    let was = $0; $0 = true; return !was
                }) {
                    promise.fail(Closed())
                }
            }
            return state.closed
        }
        if closedAlready,
            done.withLockedValue({
                let was = $0; $0 = true; return !was
            })
        {
            promise.fail(Closed())
        }
        defer { closeWatch.withLockedValue { $0.failWait = nil } }
        return try promise.futureResult.wait()
    }

    /// Whether every statement is written to standard error first (`IAP_RECON_TRACE_SQL=1`).
    ///
    /// For finding which statement PostgreSQL refused; values are bound, never in the text.
    private static let traced = ProcessInfo.processInfo.environment["IAP_RECON_TRACE_SQL"] == "1"

    func trace(_ sql: String) {
        if Self.traced { FileHandle.standardError.write(Data(("SQL: " + sql + "\n").utf8)) }
    }

    /// Runs one statement without parameters.
    package func execute(_ sql: String, context: @autoclosure () -> String) throws(StoreError) {
        if sql == "ROLLBACK" { discardPending() } else { try flush() }
        trace(sql)
        let answer = connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        if sql == "ROLLBACK" { try? settleCopy() } else { try settleCopy() }
        do {
            _ = try wait(answer)
        } catch {
            throw failure(error, context: context(), sql: sql)
        }
        trackTransaction(sql)
    }

    /// The rows of one statement with its parameters bound, read whole.
    package func query(_ sql: String, _ values: [SQLValue], context: @autoclosure () -> String) throws(StoreError)
        -> PostgresResult
    {
        if !pending.isEmpty, mustSendPendingRows(before: sql) { try flush() }
        return try run(sql, values, context: context())
    }

    /// Whether the rows waiting must go before `sql`: always before a write (a trigger may read what they write),
    /// before a read of a table they go to; never before reading a cursor, whose rows are those of its `DECLARE`.
    private func mustSendPendingRows(before sql: String) -> Bool {
        if sql.hasPrefix("FETCH ") || sql.hasPrefix("CLOSE ") { return false }
        let reads = sql.hasPrefix("SELECT") || sql.hasPrefix("DECLARE") || sql.hasPrefix("WITH")
        if !reads { return true }
        let upper = sql.uppercased()
        if upper.contains("INSERT ") || upper.contains("UPDATE ") || upper.contains("DELETE ") { return true }
        return pending.isRead(by: sql)
    }

    private func run(_ sql: String, _ values: [SQLValue], context: @autoclosure () -> String) throws(StoreError)
        -> PostgresResult
    {
        trace(sql)
        if readsWhole { return try runPrepared(sql, values, context: context()) }
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let number): bindings.append(number)
            case .text(let text): bindings.append(text)
            }
        }
        let answer = connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
        try settleCopy()
        do {
            let result = try wait(answer)
            return try PostgresResult(result)
        } catch {
            throw failure(error, context: context(), sql: sql)
        }
    }

    /// Sends `sql` (a `FETCH`: rows waiting to be written need not go first) and returns its answer to come, for
    /// ``answer(_:sql:context:)``.
    package func ask(_ sql: String) -> EventLoopFuture<PostgresQueryResult> {
        trace(sql)
        return connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
    }

    /// The rows of a statement sent by ``ask(_:)``.
    package func answer(_ asked: EventLoopFuture<PostgresQueryResult>, sql: String, context: @autoclosure () -> String)
        throws(StoreError) -> PostgresResult
    {
        try settleCopy()
        do {
            return try PostgresResult(wait(asked))
        } catch {
            throw failure(error, context: context(), sql: sql)
        }
    }

    /// A new cursor name, unique on this connection.
    package func nextCursorName() -> String {
        cursorSerial += 1
        return "iap_recon_c\(cursorSerial)"
    }

    /// Sends `sql` without waiting for its answer (closing a cursor, which reads no table: rows waiting to be written
    /// stay waiting): the connection answers in order, so a later statement's wait covers it; a failure here is the
    /// transaction's next error.
    package func send(_ sql: String) {
        _ = connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
    }

    /// A number no other statement of this connection has.
    package func nextStatementSerial() -> Int {
        statementSerial += 1
        return statementSerial
    }

    // MARK: Rows sent together (``RowInsert``)

    private var statementSerial = 0
    /// A read-only store's statements, prepared on this connection, by their text (``runPrepared(_:_:context:)``).
    var prepared: [String: PreparedQuery] = [:]
    private var pending = PostgresPendingRows()

    /// Adds one row of statement `owner` to the rows to send together; what must go first goes now.
    package func enqueue(_ template: RowInsert, owner: Int, values: [SQLValue]) throws(StoreError) {
        for statement in pending.add(template, owner: owner, values: values) { try send(statement) }
    }

    /// Sends the rows waiting.
    package func flush() throws(StoreError) {
        guard !pending.isEmpty else { return }
        for statement in pending.takeAll() { try send(statement) }
    }

    private func send(_ statement: PostgresPendingRows.Statement) throws(StoreError) {
        if let copy = statement.copy {
            try self.copy(copy, context: "writing rows")
        } else {
            _ = try run(statement.sql, statement.values, context: "writing rows")
        }
    }

    private func discardPending() {
        pending.discard()
    }

    private func trackTransaction(_ sql: String) {
        let head = sql.prefix(16).uppercased()
        if head.hasPrefix("BEGIN") || head.hasPrefix("START TRANSACTION") {
            inTransaction = true
            transactionSerial += 1
        } else if head.hasPrefix("COMMIT") || head == "ROLLBACK" || head.hasPrefix("END") {
            inTransaction = false
        }
    }

    /// One line: PostgreSQL's message and SQLSTATE, or the connection's loss.
    package func failure(_ error: any Error, context: String, sql: String? = nil) -> StoreError {
        if error is Closed {
            inTransaction = false
            return .postgres(
                state: "08006", message: "lost \(name): the server closed the connection", context: context)
        }
        let state = (error as? PSQLError)?.serverInfo?[.sqlState] ?? ""
        let message = DatabaseSourceError.message(error, tls: .disable)
        if error is PSQLError || error is ChannelError, DatabaseSourceError.isConnectionLoss(error) {
            inTransaction = false
            return .postgres(
                state: state.isEmpty ? "08006" : state, message: "lost \(name): \(message)", context: context)
        }
        // The statement's opening words (never its values: they are bound) say which one it was.
        let statement = sql.map {
            " in \"" + $0.split(whereSeparator: \.isWhitespace).prefix(8).joined(separator: " ") + " …\""
        }
        return .postgres(state: state, message: message + (statement ?? ""), context: context)
    }
}

@available(*, unavailable)
extension PostgresSession: Sendable {}
