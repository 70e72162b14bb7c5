import Foundation

/// One piece of work on a thread of its own, beside the caller's: ``join()`` waits for it and gives its result or
/// rethrows its error.
///
/// Whoever starts the work joins it on every path, a failed one too (`defer`), so it never outlives the caller's
/// resources.
package final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<Value, any Error>?

    /// Starts `work` now on a new thread.
    package init(_ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            let outcome = Result { try work() }
            condition.lock()
            result = outcome
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    /// Waits for the work to end; its value, or the error it threw.
    package func join() throws -> Value {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result { return try result.get() }
            condition.wait()
        }
    }
}
