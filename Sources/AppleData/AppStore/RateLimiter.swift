import Foundation
import ReconModel

/// A token bucket per Apple endpoint, so a batch never exceeds Apple's published request rates.
///
/// Defaults (``appleDefaults``): 50 requests/s for the App Store Server API endpoints (Get All
/// Subscription Statuses among them), 10/s for Look Up Order ID and Get Refund History, as Apple
/// publishes them (https://developer.apple.com/documentation/appstoreserverapi/identifying-rate-limits);
/// `verifyReceipt` has no published limit and is not throttled unless a rate is configured for it.
/// A bucket holds one second's worth of tokens. Waiting happens outside the actor, so one slow
/// caller never blocks the others' bookkeeping.
public actor RateLimiter {
    /// Requests per second by endpoint Apple publishes or we assume.
    public static let appleDefaults: [AppleEndpointKind: Double] = [
        .transactionInfo: 50, .transactionHistory: 50, .orderLookup: 10, .refundHistory: 10,
        .notificationHistory: 50, .subscriptionStatuses: 50, .consumptionInformation: 50,
    ]

    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    private let rates: [AppleEndpointKind: Double]
    private let clock: any ReconClock
    private var buckets: [AppleEndpointKind: Bucket] = [:]

    /// Creates a limiter.
    ///
    /// - Parameters:
    ///   - rates: Requests per second by endpoint; an endpoint without a rate is not throttled.
    ///   - clock: Time source for refills and waits.
    public init(
        rates: [AppleEndpointKind: Double] = RateLimiter.appleDefaults,
        clock: any ReconClock = SystemClock()
    ) {
        self.rates = rates.filter { $0.value > 0 }
        self.clock = clock
    }

    /// An unthrottled limiter.
    public static func unlimited() -> RateLimiter { RateLimiter(rates: [:]) }

    /// Takes a token for `endpoint`, waiting until one is available.
    ///
    /// - Throws: `CancellationError` when cancelled while waiting.
    public nonisolated func acquire(_ endpoint: AppleEndpointKind) async throws {
        let wait = await reserve(endpoint)
        if wait > .zero {
            try await clock.sleep(for: wait)
        }
    }

    /// Takes a token now (possibly going into debt) and returns how long the caller must wait.
    package func reserve(_ endpoint: AppleEndpointKind) -> Duration {
        guard let rate = rates[endpoint] else { return .zero }
        let now = clock.now()
        var bucket = buckets[endpoint] ?? Bucket(tokens: rate, updated: now)
        let elapsed = max(0, now.timeIntervalSince(bucket.updated))
        bucket.tokens = min(rate, bucket.tokens + elapsed * rate)
        bucket.updated = now
        bucket.tokens -= 1
        buckets[endpoint] = bucket
        if bucket.tokens >= 0 { return .zero }
        return .seconds(-bucket.tokens / rate)
    }
}

/// An async semaphore: at most `limit` operations run at once; the others wait in FIFO order.
public actor ConcurrencyGate {
    /// Most operations at once.
    public let limit: Int
    private var running = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var head = 0

    /// Creates a gate admitting `limit` (at least 1) operations at once.
    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `operation` once a slot is free.
    public nonisolated func withSlot<Result: Sendable>(_ operation: () async -> Result) async -> Result {
        await enter()
        let result = await operation()
        await leave()
        return result
    }

    private func enter() async {
        if running < limit {
            running += 1
            return
        }
        await withCheckedContinuation { continuation in
            waiters.append(continuation)
        }
        // The slot was handed over by `leave()`; `running` already counts it.
    }

    private func leave() {
        if head < waiters.count {
            let next = waiters[head]
            head += 1
            if head > 64, head * 2 > waiters.count {
                waiters.removeFirst(head)
                head = 0
            }
            next.resume()
        } else {
            running -= 1
        }
    }
}
