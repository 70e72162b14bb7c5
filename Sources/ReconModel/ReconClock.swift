import Foundation
import Synchronization

/// Where "now" comes from and how the program waits: the one clock every part of a command
/// shares (the store's timestamps, the run record, retry backoff and `Retry-After`, rate limits,
/// Server API token `iat`, and certificate validity when a signed payload carries no date).
///
/// Built once by ``ReconDependencies``; production uses ``SystemClock``, tests ``ManualClock``.
public protocol ReconClock: Sendable {
    /// The current wall-clock time.
    func now() -> Date
    /// Waits for `duration`.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    func sleep(for duration: Duration) async throws
}

extension ReconClock {
    /// Epoch milliseconds now.
    public func nowMillis() -> Int64 { Int64((now().timeIntervalSince1970 * 1000).rounded()) }
}

/// The real clock: `Date()` and `Task.sleep`.
public struct SystemClock: ReconClock {
    /// Creates the system clock.
    public init() {}

    public func now() -> Date { Date() }

    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}

/// A clock that stands still until told otherwise: a sleep returns at once, is recorded, and moves "now" forward
/// by the time slept.
///
/// For tests and reproducible runs.
public final class ManualClock: ReconClock {
    private let state: Mutex<(now: Date, sleeps: [Duration])>

    /// A clock reading `start`.
    public init(_ start: Date) {
        state = Mutex((start, []))
    }

    /// A clock reading `millis` epoch milliseconds.
    public convenience init(millis: Int64) {
        self.init(Date(timeIntervalSince1970: Double(millis) / 1000))
    }

    public func now() -> Date { state.withLock { $0.now } }

    public func sleep(for duration: Duration) async throws {
        advance(by: duration)
        try Task.checkCancellation()
    }

    /// Moves "now" forward by `duration`, recording it as a sleep.
    public func advance(by duration: Duration) {
        state.withLock {
            $0.sleeps.append(duration)
            $0.now = $0.now.addingTimeInterval(duration.inSeconds)
        }
    }

    /// Every sleep requested, in order.
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }
}

extension Duration {
    /// The duration in seconds, fractional.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in whole milliseconds.
    package var inMilliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
