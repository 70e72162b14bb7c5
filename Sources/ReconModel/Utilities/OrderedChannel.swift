import Foundation

/// A first-in first-out hand-over between two threads: values arrive in the order they were
/// sent, so work split across threads this way keeps its order (and the output its bytes).
///
/// `capacity` bounds what waits in the channel (a sender blocks while it is full); nil leaves it
/// unbounded.
package final class OrderedChannel<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var values: [Value] = []
    private var head = 0
    private var closed = false
    private let capacity: Int?

    package init(capacity: Int? = nil) {
        self.capacity = capacity
    }

    /// Queues `value`, waiting while the channel is full; dropped once the channel is closed.
    package func send(_ value: Value) {
        condition.lock()
        defer { condition.unlock() }
        while let capacity, values.count - head >= capacity, !closed { condition.wait() }
        guard !closed else { return }
        values.append(value)
        condition.broadcast()
    }

    /// No more values: receivers get what is queued, then nil.
    package func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next value, waiting for one; nil once the channel is closed and empty.
    package func receive() -> Value? {
        condition.lock()
        defer { condition.unlock() }
        while head == values.count, !closed { condition.wait() }
        return take()
    }

    /// The next value if one is queued, without waiting.
    package func poll() -> Value? {
        condition.lock()
        defer { condition.unlock() }
        return take()
    }

    private func take() -> Value? {
        guard head < values.count else { return nil }
        let value = values[head]
        head += 1
        if head == values.count {
            values.removeAll(keepingCapacity: true)
            head = 0
        }
        condition.broadcast()
        return value
    }
}
