import Foundation
import ReconModel

/// What one attempt concluded, as far as retrying goes.
public enum RetryStep<Value: Sendable>: Sendable {
    /// A final answer, good or bad: stop.
    case finish(Value)
    /// A transient failure: try again (after at least `retryAfter`, when the server asked).
    case retry(reason: String, retryAfter: Duration?)
}

/// How a retried operation ended.
public enum RetryRun<Value: Sendable>: Sendable {
    /// An attempt produced a final answer.
    case finished(Value, attempts: Int)
    /// Every attempt failed transiently and the budget ran out; `reason` is the last failure.
    case exhausted(reason: String, attempts: Int)

    /// Attempts made.
    public var attempts: Int {
        switch self {
        case .finished(_, let attempts), .exhausted(_, let attempts): return attempts
        }
    }
}

/// Capped exponential backoff with jitter, an attempt limit and a time budget, honouring
/// `Retry-After`.
///
/// The delay before attempt *n + 1* is `min(maxDelay, baseDelay × 2^(n−1))`, of which the
/// `jitter` fraction is randomised (`random()` in `0..<1`), and never less than a server's
/// `Retry-After`. A retry that would end after the time budget is not made: the run is
/// ``RetryRun/exhausted(reason:attempts:)`` and the caller keeps the work pending.
public struct RetryPolicy: Sendable {
    /// Most attempts, the first included.
    public var maxAttempts: Int
    /// Most wall time from the first attempt to the start of the last.
    public var budget: Duration
    /// Delay before the second attempt (before jitter).
    public var baseDelay: Duration
    /// Largest computed backoff delay (a `Retry-After` may ask for more, within the budget).
    public var maxDelay: Duration
    /// Fraction of each delay that is random, 0 (none) to 1 ("full jitter").
    public var jitter: Double
    /// Random source, values in `0..<1`.
    public var random: @Sendable () -> Double
    /// Clock for waits, `Retry-After` dates and the budget.
    public var clock: any ReconClock

    /// Creates a policy; defaults suit Apple (5 attempts, 60 s budget, 0.5 s → 20 s backoff).
    ///
    /// The attempts, budget and first delay are the defaults of the `retry-*` settings, written here alone
    /// (``ReconConfig`` reads them from ``default``).
    public init(
        maxAttempts: Int = 5, budget: Duration = .seconds(60), baseDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(20), jitter: Double = 0.5,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        clock: any ReconClock = SystemClock()
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.budget = budget
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = min(1, max(0, jitter))
        self.random = random
        self.clock = clock
    }

    /// The production default.
    public static var `default`: RetryPolicy { RetryPolicy() }

    /// A single attempt, no retries.
    public static var never: RetryPolicy { RetryPolicy(maxAttempts: 1) }

    /// The backoff delay after failed attempt number `attempt` (1-based), jitter included.
    public func backoff(afterAttempt attempt: Int) -> Duration {
        let exponent = min(max(0, attempt - 1), 30)
        var delay = baseDelay * (1 << exponent)
        if delay > maxDelay { delay = maxDelay }
        let sample = min(max(random(), 0), 1)
        let factor = (1 - jitter) + jitter * sample
        return delay * factor
    }

    /// Runs `operation` until it finishes, the attempts are used up or the budget is spent.
    ///
    /// - Parameter operation: One attempt; receives the 1-based attempt number.
    /// - Returns: The final value with the attempt count, or why it gave up.
    public func run<Value: Sendable>(_ operation: (Int) async -> RetryStep<Value>) async -> RetryRun<Value> {
        let start = clock.now()
        var attempt = 0
        while true {
            attempt += 1
            switch await operation(attempt) {
            case .finish(let value):
                return .finished(value, attempts: attempt)
            case .retry(let reason, let retryAfter):
                if attempt >= maxAttempts {
                    return .exhausted(reason: "\(reason) (after \(attempt) attempts)", attempts: attempt)
                }
                var delay = backoff(afterAttempt: attempt)
                if let retryAfter, retryAfter > delay { delay = retryAfter }
                let elapsed = Duration.seconds(clock.now().timeIntervalSince(start))
                if elapsed + delay > budget {
                    return .exhausted(
                        reason: "\(reason) (retry budget of \(budget) spent after \(attempt) attempts)",
                        attempts: attempt)
                }
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return .exhausted(reason: "\(reason) (cancelled while waiting to retry)", attempts: attempt)
                }
            }
        }
    }
}

/// Parses HTTP `Retry-After` values the way Apple and everyone else write them.
public enum RetryAfter {
    /// The wait a `Retry-After` value asks for, measured from `now`; nil when unparseable.
    ///
    /// Accepted forms: a UNIX time in milliseconds (what Apple documents, any integer of 12 or
    /// more digits), a UNIX time in seconds (10–11 digits, after 2001), delta seconds (a small
    /// integer or decimal), or an HTTP-date (`Sun, 06 Nov 1994 08:49:37 GMT`). A time in the past
    /// means no wait.
    public static func delay(from value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        if text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let number = Int64(text) else { return nil }
            let nowMillis = Int64((now.timeIntervalSince1970 * 1000).rounded())
            if number >= 100_000_000_000 {
                return .milliseconds(max(0, number - nowMillis))
            }
            if number >= 1_000_000_000 {
                return .milliseconds(max(0, number * 1000 - nowMillis))
            }
            return .seconds(number)
        }
        if let seconds = Double(text), seconds.isFinite, seconds >= 0, text.first?.isNumber == true {
            return .milliseconds(Int64((seconds * 1000).rounded(.up)))
        }
        if let date = parseHTTPDate(text) {
            let interval = date.timeIntervalSince(now)
            return .milliseconds(max(0, Int64((interval * 1000).rounded(.up))))
        }
        return nil
    }

    /// Formats `date` as an HTTP-date (IMF-fixdate).
    public static func httpDate(_ date: Date) -> String {
        makeFormatter("EEE, dd MMM yyyy HH:mm:ss 'GMT'").string(from: date)
    }

    package static func parseHTTPDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            if let date = makeFormatter(format).date(from: text) { return date }
        }
        return nil
    }

    private static func makeFormatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }
}
