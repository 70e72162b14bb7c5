import AppleData
import Foundation
import PostgresNIO
import ReconModel
import ReconStorage

/// A query that fails as soon as its connection closes.
///
/// A `FETCH` sent just as the server went away (stopped mid-stream) was never answered nor failed
/// by the client library: the import waited for ever. Racing each query against the connection's
/// close makes a lost connection an error at once, so the import exits 1 and a rerun completes it.
package enum ClosedConnectionGuard {
    /// The connection closed before the query's answer came.
    package struct Closed: Error, CustomStringConvertible {
        package var description: String { "the server closed the connection" }
    }

    /// The rows of `sql` on `connection`, read whole, or ``Closed`` once the connection closes first.
    package static func collect(_ sql: String, on connection: PostgresConnection, logger: Logger) async throws
        -> [PostgresRow]
    {
        let first = FirstOutcome()
        return try await withCheckedThrowingContinuation { continuation in
            first.set(continuation)
            Task {
                do {
                    first.resume(
                        .success(try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()))
                } catch {
                    first.resume(.failure(error))
                }
            }
            connection.closeFuture.whenComplete { _ in
                // The query's own task is left to end with the connection: cancelling a row stream
                // the server is cutting trips the client library's state machine.
                first.resume(.failure(Closed()))
            }
        }
    }

    /// Resumes its continuation with whichever outcome comes first.
    private final class FirstOutcome: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<[PostgresRow], any Error>?

        func set(_ continuation: CheckedContinuation<[PostgresRow], any Error>) {
            lock.withLock { self.continuation = continuation }
        }

        func resume(_ outcome: Result<[PostgresRow], any Error>) {
            let continuation = lock.withLock {
                defer { self.continuation = nil }
                return self.continuation
            }
            continuation?.resume(with: outcome)
        }
    }
}
