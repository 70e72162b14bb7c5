import Logging
import NIOCore
import PostgresNIO

/// `COPY … FROM STDIN` on the session's connection, waited for as every other statement is.
///
/// PostgresNIO offers `COPY` only as an `async` function. Its task runs on the connection's event loop (a task
/// executor of its own, below), never on the cooperative pool, so the calling thread blocks as it does for a query:
/// on a future the event loop completes, which a lost connection fails at once.
extension PostgresSession {
    /// Sends `rows` and waits until the server has taken them all.
    func copy(_ rows: PostgresCopyRows, context: @autoclosure () -> String) throws(StoreError) {
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
        do {
            try wait(promise.futureResult)
        } catch {
            throw failure(error, context: context(), sql: rows.sql)
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
