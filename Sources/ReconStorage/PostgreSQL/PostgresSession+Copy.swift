import Logging
import NIOCore
import PostgresNIO

/// `COPY … FROM STDIN` on the session's connection, the server taking the rows while this process goes on.
///
/// PostgresNIO offers `COPY` only as an `async` function. Its task runs on the connection's event loop (a task
/// executor of its own, below), never on the cooperative pool, and the caller does not wait for it: the connection
/// answers in order, so the next statement's answer comes after the copy's, and the caller waits for the copy first
/// (``settleCopy()``), on a future the event loop completes, which a lost connection fails at once. A report judges
/// its next transactions while the server stores the last batch of results.
extension PostgresSession {
    /// Sends `rows`; the next statement, or the next copy, waits until the server has taken them all.
    func copy(_ rows: PostgresCopyRows, context: @autoclosure () -> String) throws(StoreError) {
        try settleCopy()
        trace(rows.sql)
        let connection = connection
        let logger = logger
        let eventLoop = connection.eventLoop
        let promise = eventLoop.makePromise(of: Void.self)
        // `copyFrom` quotes the name it is given as one identifier: a temporary table's schema goes in as
        // `pg_temp"."t`, which it quotes into `"pg_temp"."t"`.
        let table = rows.table.replacingOccurrences(of: ".", with: "\".\"")
        let columns = rows.columns
        let data = ByteBuffer(bytes: rows.data)
        Task(executorPreference: EventLoopTaskExecutor(eventLoop)) {
            do {
                try await connection.copyFrom(table: table, columns: columns, logger: logger) { writer in
                    try await writer.write(data)
                }
                promise.succeed(())
            } catch {
                promise.fail(error)
            }
        }
        copyInFlight = (promise.futureResult, rows.sql, context())
    }

    /// Waits until the server has taken the last copy's rows; throws its failure.
    func settleCopy() throws(StoreError) {
        guard let inFlight = copyInFlight else { return }
        copyInFlight = nil
        do {
            try wait(inFlight.done)
        } catch {
            throw failure(error, context: inFlight.context, sql: inFlight.sql)
        }
    }
}

/// Runs a task's jobs on one event loop: its awaits resume there, not on the cooperative pool.
final class EventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        eventLoop.execute { job.runSynchronously(on: executor) }
    }
}
