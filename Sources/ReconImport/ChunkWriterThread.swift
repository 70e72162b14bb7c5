import AppleData
import Foundation
import ReconModel
import ReconStorage

/// A ``ChunkWriter`` on a thread of its own, fed parsed chunks through a bounded queue, so the
/// rows of the next chunks are read and judged while the store writes (CONTRACT §1.7).
///
/// The queue holds a few chunks: a producer faster than the store waits, so memory stays flat.
/// Only this thread touches the writer (and its store) between ``start()`` and ``finish(failed:)``.
package final class ChunkWriterThread: @unchecked Sendable {
    private let writer: ChunkWriter
    private let queue = BoundedQueue<ParsedBatch>(capacity: 8)
    private let condition = NSCondition()
    private var outcome: Result<ImportFileSummary, any Error>?
    private var waiters: [CheckedContinuation<Result<ImportFileSummary, any Error>, Never>] = []
    /// The producer failed: what is still queued is not written.
    private var stopped = false

    package init(_ writer: ChunkWriter) {
        self.writer = writer
    }

    /// Starts the thread: it opens the first batch and writes chunks as they come.
    package func start() {
        let thread = Thread { [self] in run() }
        thread.stackSize = 1 << 22
        thread.start()
    }

    /// Queues `chunk`, waiting while the queue is full.
    ///
    /// - Throws: `CancellationError` once the writer has stopped (it failed): the producer stops too.
    package func send(_ chunk: ParsedChunk) throws {
        guard queue.push(.chunk(chunk)) else { throw CancellationError() }
    }

    /// No more chunks: waits for the writer and returns what it wrote, or its error.
    ///
    /// `failed`: the producer failed; the writer stops without writing what is still queued and
    /// rolls its open batch back, and the producer's error is the one to report.
    package func finish(failed: Bool) async -> Result<ImportFileSummary, any Error> {
        if failed {
            stop()
        } else {
            _ = queue.push(.done)
        }
        return await withCheckedContinuation { continuation in
            condition.lock()
            if let outcome {
                condition.unlock()
                continuation.resume(returning: outcome)
            } else {
                waiters.append(continuation)
                condition.unlock()
            }
        }
    }

    /// Stops the writer before its next chunk.
    private func stop() {
        condition.lock()
        stopped = true
        condition.unlock()
        queue.cancel()
    }

    private var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    private func run() {
        let result: Result<ImportFileSummary, any Error>
        do {
            try writer.begin()
            loop: while true {
                let next = queue.pop()
                if isStopped { throw CancellationError() }
                switch next {
                case .chunk(let chunk): try writer.write(chunk)
                case .failed(let error): throw error
                case .done: break loop
                case nil: throw CancellationError()
                }
            }
            try writer.finish()
            result = .success(writer.summary)
        } catch {
            writer.abort()
            result = .failure(error)
        }
        // Wakes a producer waiting for room: its next chunk is refused.
        queue.cancel()
        condition.lock()
        outcome = result
        let waiting = waiters
        waiters = []
        condition.unlock()
        for waiter in waiting { waiter.resume(returning: result) }
    }
}
