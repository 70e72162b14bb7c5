import AppStoreSimulator
import Foundation
import IAPRecon
import Testing

/// Get All Subscription Statuses against the simulator on 127.0.0.1: the real client, transport and retries.
@Suite("Get All Subscription Statuses against the simulator")
struct SubscriptionStatusEndToEndTests {
    let fixture = SubscriptionStatusFixture()

    func client(
        _ simulator: AppStoreSimulator, _ transport: AsyncHTTPTransport, policy: RetryPolicy = SimFixture.fastPolicy()
    ) throws -> AppStoreServerAPIClient {
        try AppStoreServerAPIClient(
            key: SimFixture.apiKey(), endpoints: simulator.endpoints(requestTimeout: .seconds(20)),
            transport: transport, retryPolicy: policy, rateLimiter: .unlimited())
    }

    @Test("StatusResponse: the subscription's group, its status, and two JWS signed by the simulator's CA at now")
    func statusResponse() async throws {
        try await withSimulator(seed: fixture.seed) { simulator, transport in
            let answer = try #require(
                try await client(simulator, transport).allSubscriptionStatuses(transactionID: "5100").value)
            #expect(answer.environment == .production)
            #expect(answer.bundleID == SimFixture.bundleID)
            #expect(answer.appAppleID == 1_234_567_890)
            #expect(answer.data.map(\.subscriptionGroupIdentifier) == ["20000000"])
            let item = try #require(answer.lastTransaction(originalTransactionID: "5100"))
            #expect(item.status == 1)
            let signedTransaction = try #require(item.signedTransactionInfo)
            let transaction = try #require(jwsPayload(signedTransaction))
            #expect(transaction["transactionId"] as? String == "5101")  // the latest period, the renewal
            #expect(transaction["subscriptionGroupIdentifier"] as? String == "20000000")
            let signedRenewal = try #require(item.signedRenewalInfo)
            let renewal = try #require(jwsPayload(signedRenewal))
            #expect(renewal["originalTransactionId"] as? String == "5100")
            #expect(renewal["autoRenewStatus"] as? Int == 1)
            #expect(
                renewal["recentSubscriptionStartDate"] as? Int64 == fixture.now - 40 * SubscriptionStatusFixture.day)
            // Signed at the simulator's now: the moment of the request, not a seeded date.
            let signed = try #require(renewal["signedDate"] as? Int64)
            #expect(signed >= fixture.now && signed < fixture.now + 600_000)
        }
    }

    @Test("Any transaction id of the subscription finds it, as Apple's documentation allows")
    func anyTransactionID() async throws {
        try await withSimulator(seed: fixture.seed) { simulator, transport in
            let answer = try #require(
                try await client(simulator, transport).allSubscriptionStatuses(transactionID: "5101").value)
            #expect(answer.lastTransaction(originalTransactionID: "5100")?.status == 1)
        }
    }

    @Test("Only in sandbox: production's OriginalTransactionIdNotFoundError (4040005) sends the client to sandbox")
    func sandboxFallback() async throws {
        try await withSimulator(seed: fixture.seed) { simulator, transport in
            let answer = try #require(
                try await client(simulator, transport).allSubscriptionStatuses(transactionID: "5600").value)
            #expect(answer.environment == .sandbox)
            #expect(answer.attempts == 2)
            #expect(answer.appAppleID == nil)
            #expect(simulator.requestLog.count(path: "/production/inApps/v1/subscriptions/5600") == 1)
            #expect(simulator.requestLog.count(path: "/sandbox/inApps/v1/subscriptions/5600") == 1)
        }
    }

    @Test("A seed fixed at a moment: the statuses are those of that moment, the token still checked at the wall clock")
    func seedFixedAtAMoment() async throws {
        let day = SubscriptionStatusFixture.day
        var seed = fixture.seed
        // 30 days back: 5100's first period is active, 5500 not yet purchased.
        seed.subscriptionStatusesAsOf = fixture.now - 30 * day
        try await withSimulator(seed: seed) { simulator, transport in
            let api = try client(simulator, transport)
            let answer = try #require(try await api.allSubscriptionStatuses(transactionID: "5100").value)
            let item = try #require(answer.lastTransaction(originalTransactionID: "5100"))
            #expect(item.status == 1)
            let signedTransaction = try #require(item.signedTransactionInfo)
            let transaction = try #require(jwsPayload(signedTransaction))
            #expect(transaction["transactionId"] as? String == "5100")
            #expect(transaction["signedDate"] as? Int64 == fixture.now - 30 * day)
            let unknown = try #require(try await api.allSubscriptionStatuses(transactionID: "5500").failure)
            #expect(unknown.apiError == .originalTransactionIDNotFound)
        }
    }

    @Test("Unknown anywhere: 404 with OriginalTransactionIdNotFoundError (4040005), not retried")
    func notFound() async throws {
        try await withSimulator(seed: fixture.seed) { simulator, transport in
            let failure = try #require(
                try await client(simulator, transport).allSubscriptionStatuses(transactionID: "999999").failure)
            #expect(failure.httpStatus == 404)
            #expect(failure.apiError == .originalTransactionIDNotFound)
            #expect(failure.message == "Original transaction id not found.")
            #expect(failure.environment == .sandbox)
            #expect(failure.attempts == 2)
        }
    }

    @Test("A purchase that is not a subscription: Apple finds the customer, and lists no subscription")
    func notASubscription() async throws {
        try await withSimulator(seed: fixture.seed) { simulator, transport in
            let answer = try #require(
                try await client(simulator, transport).allSubscriptionStatuses(transactionID: "1000").value)
            #expect(answer.data.isEmpty)
        }
    }

    @Test("429 with Retry-After, then success: the wait Apple asked for is honoured (identifying-rate-limits)")
    func rateLimitedThenAnswered() async throws {
        let path = "/production/inApps/v1/subscriptions/5100"
        let faults = FaultPlan([.first(1, at: path, .tooManyRequests(retryAfter: .seconds(1)))])
        try await withSimulator(seed: fixture.seed, faults: faults) { simulator, transport in
            let clock = RecordingClock()
            let answer = try #require(
                try await client(simulator, transport, policy: SimFixture.fastPolicy(clock: clock))
                    .allSubscriptionStatuses(transactionID: "5100").value)
            #expect(answer.attempts == 2)
            #expect(answer.lastTransaction(originalTransactionID: "5100")?.status == 1)
            #expect(simulator.requestLog.requests.filter { $0.path == path }.map(\.status) == [429, 200])
            let waited = try #require(clock.sleeps.first)
            #expect(waited >= .milliseconds(900) && waited <= .seconds(2))
        }
    }

    @Test("5xx for the whole budget: unreachable, never a failure")
    func unreachable() async throws {
        let faults = FaultPlan([.always(at: nil, .httpStatus(503, errorCode: nil))])
        try await withSimulator(seed: fixture.seed, faults: faults) { simulator, transport in
            let result = try await client(simulator, transport, policy: SimFixture.fastPolicy(maxAttempts: 2))
                .allSubscriptionStatuses(transactionID: "5100")
            guard case .unreachable(_, let attempts) = result else {
                Issue.record("expected unreachable, got \(result)")
                return
            }
            #expect(attempts == 2)
        }
    }
}
