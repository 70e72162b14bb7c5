import Foundation
import IAPRecon
import Testing

@Suite("Retry policy")
struct RetryPolicyTests {
    @Test("Backoff doubles, is capped, and jitter stays within its share")
    func backoffShape() {
        let low = RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .milliseconds(500), jitter: 0.5, random: { 0 })
        let high = RetryPolicy(
            baseDelay: .milliseconds(100), maxDelay: .milliseconds(500), jitter: 0.5, random: { 0.999_999 })
        #expect(low.backoff(afterAttempt: 1) == .milliseconds(50))
        #expect(low.backoff(afterAttempt: 2) == .milliseconds(100))
        #expect(low.backoff(afterAttempt: 3) == .milliseconds(200))
        #expect(low.backoff(afterAttempt: 10) == .milliseconds(250))
        #expect(high.backoff(afterAttempt: 1) <= .milliseconds(100))
        #expect(high.backoff(afterAttempt: 1) > .milliseconds(99))
        #expect(high.backoff(afterAttempt: 30) <= .milliseconds(500))
    }

    @Test("Stops at the attempt limit and reports exhaustion")
    func attemptLimit() async {
        let clock = RecordingClock()
        let policy = RetryPolicy.testing(maxAttempts: 3, clock: clock)
        let run: RetryRun<Int> = await policy.run { _ in .retry(reason: "HTTP 503", retryAfter: nil) }
        guard case .exhausted(let reason, let attempts) = run else {
            Issue.record("expected exhaustion, got \(run)")
            return
        }
        #expect(attempts == 3)
        #expect(reason.contains("HTTP 503"))
        #expect(clock.sleeps.count == 2)
    }

    @Test("Finishes as soon as an attempt is final")
    func finishesEarly() async {
        let policy = RetryPolicy.testing()
        let run: RetryRun<String> = await policy.run { attempt in
            attempt < 2 ? .retry(reason: "timed out", retryAfter: nil) : .finish("ok")
        }
        guard case .finished(let value, let attempts) = run else {
            Issue.record("expected a value, got \(run)")
            return
        }
        #expect(value == "ok")
        #expect(attempts == 2)
    }

    @Test("Retry-After longer than the backoff is honoured")
    func honoursRetryAfter() async {
        let clock = RecordingClock()
        let policy = RetryPolicy.testing(clock: clock)
        let run: RetryRun<Int> = await policy.run { attempt in
            attempt == 1 ? .retry(reason: "HTTP 429", retryAfter: .seconds(3)) : .finish(1)
        }
        #expect(run.attempts == 2)
        #expect(clock.sleeps == [.seconds(3)])
    }

    @Test("A wait beyond the time budget is not made")
    func budget() async {
        let clock = RecordingClock()
        var policy = RetryPolicy.testing(maxAttempts: 10, clock: clock)
        policy.budget = .seconds(2)
        let run: RetryRun<Int> = await policy.run { _ in .retry(reason: "HTTP 429", retryAfter: .seconds(5)) }
        guard case .exhausted(let reason, let attempts) = run else {
            Issue.record("expected exhaustion, got \(run)")
            return
        }
        #expect(attempts == 1)
        #expect(reason.contains("budget"))
        #expect(clock.sleeps.isEmpty)
    }

    @Test(
        "Retry-After values parse in every form",
        arguments: [
            ("1700000002500", 2_500),  // UNIX ms (Apple)
            ("1700000004", 4_000),  // UNIX seconds
            ("7", 7_000),  // delta seconds
            ("0.25", 250),  // fractional seconds
            ("Tue, 14 Nov 2023 22:13:26 GMT", 6_000),  // HTTP-date
            ("1699999990000", 0),  // in the past
        ])
    func retryAfterForms(value: String, expectedMillis: Int64) {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryAfter.delay(from: value, now: now) == .milliseconds(expectedMillis))
    }

    @Test("Garbage Retry-After is ignored")
    func retryAfterGarbage() {
        #expect(RetryAfter.delay(from: "soon", now: Date()) == nil)
        #expect(RetryAfter.delay(from: "", now: Date()) == nil)
        #expect(RetryAfter.delay(from: "-5", now: Date()) == nil)
    }

    @Test("HTTP-date formatting round-trips")
    func httpDateRoundTrip() {
        let date = Date(timeIntervalSince1970: 1_700_000_006)
        let text = RetryAfter.httpDate(date)
        #expect(text == "Tue, 14 Nov 2023 22:13:26 GMT")
        #expect(RetryAfter.delay(from: text, now: Date(timeIntervalSince1970: 1_700_000_000)) == .seconds(6))
    }
}

@Suite("Rate limiter and bounded concurrency")
struct RateLimiterTests {
    @Test("A 10/s bucket lets 10 through, then spaces requests 100 ms apart")
    func tokenBucket() async throws {
        let clock = RecordingClock(fixedNow: Date(timeIntervalSince1970: 1_700_000_000))
        let limiter = RateLimiter(rates: [.orderLookup: 10], clock: clock)
        for _ in 0..<10 { try await limiter.acquire(.orderLookup) }
        #expect(clock.sleeps.isEmpty)
        try await limiter.acquire(.orderLookup)
        let waited = try #require(clock.sleeps.last)
        #expect(waited >= .milliseconds(99) && waited <= .milliseconds(101))
    }

    @Test("Defaults: 50/s for the Server API, 10/s for order and refund lookups, verifyReceipt unthrottled")
    func defaults() async throws {
        #expect(RateLimiter.appleDefaults[.transactionInfo] == 50)
        #expect(RateLimiter.appleDefaults[.transactionHistory] == 50)
        #expect(RateLimiter.appleDefaults[.orderLookup] == 10)
        #expect(RateLimiter.appleDefaults[.refundHistory] == 10)
        #expect(RateLimiter.appleDefaults[.verifyReceipt] == nil)
        let clock = RecordingClock(fixedNow: Date(timeIntervalSince1970: 1_700_000_000))
        let limiter = RateLimiter(clock: clock)
        for _ in 0..<500 { try await limiter.acquire(.verifyReceipt) }
        #expect(clock.sleeps.isEmpty)
    }

    @Test("The gate never admits more than its limit")
    func gate() async {
        let gate = ConcurrencyGate(limit: 3)
        let counter = Counter()
        let results = await withTaskGroup(of: (Int, Int).self) { group in
            for value in 0..<40 {
                group.addTask {
                    await gate.withSlot {
                        await counter.enter()
                        try? await Task.sleep(for: .milliseconds(2))
                        await counter.leave()
                        return (value, value * 2)
                    }
                }
            }
            return await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
        }
        #expect((0..<40).map { results[$0] } == (0..<40).map { $0 * 2 })
        #expect(await counter.peak <= 3)
        #expect(await counter.peak >= 2)
    }

    actor Counter {
        var current = 0
        var peak = 0
        func enter() {
            current += 1
            peak = max(peak, current)
        }
        func leave() { current -= 1 }
    }
}
