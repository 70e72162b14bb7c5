import NIOCore
import PostgresNIO
import ReconModel

/// A read-only store's statements prepared once per connection and run again by name.
///
/// `serve` asks the same few statements for every lookup. Sent as text each time, PostgreSQL parses, analyzes and
/// plans each one again, most of the server's work in a lookup. Prepared, a statement is parsed once per connection,
/// and after five runs the server may keep a generic plan (https://www.postgresql.org/docs/15/sql-prepare.html,
/// "Notes"). The statement's text is the key, so a statement with an `IN` list of another length is another entry.
extension PostgresSession {
    /// Statements kept per connection: a lookup's kinds of records times the lengths of their `IN` lists.
    static let preparedLimit = 256

    /// Runs `sql` as a prepared statement: prepared (once, in the same round trip) and executed with `values`.
    func runPrepared(_ sql: String, _ values: [SQLValue], context: @autoclosure () -> String) throws(StoreError)
        -> PostgresResult
    {
        let binds = values.map { value -> PostgresData in
            switch value {
            case .null: return .null
            case .integer(let number): return PostgresData(int64: number)
            case .text(let text): return PostgresData(string: text)
            }
        }
        let statement: EventLoopFuture<PreparedQuery>
        if let kept = prepared[sql] {
            statement = connection.eventLoop.makeSucceededFuture(kept)
        } else {
            if prepared.count >= Self.preparedLimit { forgetPrepared() }
            statement = connection.prepare(query: sql)
        }
        do {
            let query = try wait(statement)
            prepared[sql] = query
            return try PostgresResult(rows: wait(query.execute(binds)), binary: true)
        } catch {
            throw failure(error, context: context(), sql: sql)
        }
    }

    /// Deallocates every kept statement on the server (sent without waiting: the connection answers in order).
    func forgetPrepared() {
        for query in prepared.values { _ = query.deallocate() }
        prepared.removeAll()
    }
}
