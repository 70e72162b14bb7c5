import Foundation
import IAPRecon
import Testing

/// Get All Subscription Statuses through the client's HTTP seam: the request, Apple's `StatusResponse`, the
/// production → sandbox fallback and the rate limit Apple publishes for it.
@Suite("Get All Subscription Statuses (canned transport)")
struct SubscriptionStatusesClientTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    func client(_ transport: CannedTransport) throws -> AppStoreServerAPIClient {
        try AppStoreServerAPIClient(
            key: AppStoreServerAPIClientTests.key(), endpoints: .loopback, transport: transport,
            retryPolicy: .testing(clock: RecordingClock(fixedNow: Self.now)), rateLimiter: .unlimited())
    }

    @Test("GET /inApps/v1/subscriptions/{transactionId}: Apple's getAllSubscriptionStatusesResponse.json decoded")
    func requestAndStatusResponse() async throws {
        let sample = try AppStoreFixtures.text("getAllSubscriptionStatusesResponse")
        let transport = CannedTransport(sequence: [.success(AppleHTTPResponse(status: 200, json: sample))])
        let answer = try #require(try await client(transport).allSubscriptionStatuses(transactionID: "3749183").value)
        let request = try #require(transport.requests.first)
        #expect(request.method == .get)
        #expect(request.url.absoluteString == "http://127.0.0.1:9/production/inApps/v1/subscriptions/3749183")
        #expect(request.endpoint == .subscriptionStatuses)
        #expect(request.header("Authorization")?.hasPrefix("Bearer ") == true)
        #expect(answer.environment == .localTesting)
        #expect(answer.bundleID == "com.example")
        #expect(answer.appAppleID == 5_454_545)
        #expect(answer.attempts == 1)
        #expect(answer.data.map(\.subscriptionGroupIdentifier) == ["sub_group_one", "sub_group_two"])
        #expect(answer.data.map(\.lastTransactions.count) == [2, 1])
        // The item of the subscription asked about, in whichever group Apple lists it.
        #expect(
            answer.lastTransaction(originalTransactionID: "3413453")
                == LastTransactionsItem(
                    originalTransactionId: "3413453", status: 2, signedTransactionInfo: "signed_transaction_three",
                    signedRenewalInfo: "signed_renewal_three"))
        #expect(answer.lastTransaction(originalTransactionID: "5314314134")?.status == 5)
        #expect(answer.lastTransaction(originalTransactionID: "999") == nil)
    }

    @Test("OriginalTransactionIdNotFoundError (4040005) in production: sandbox is asked")
    func fallsBackToSandbox() async throws {
        let notFound = try AppStoreFixtures.text("originalTransactionIdNotFoundError")
        let transport = CannedTransport { request, _ in
            request.environment == .production
                ? .success(AppleHTTPResponse(status: 404, json: notFound))
                : .success(AppleHTTPResponse(status: 200, json: #"{"data": [], "bundleId": "com.example.app"}"#))
        }
        let answer = try #require(try await client(transport).allSubscriptionStatuses(transactionID: "42").value)
        #expect(answer.environment == .sandbox)  // the answer names none: the environment asked
        #expect(answer.data.isEmpty)
        #expect(answer.attempts == 2)
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                "http://127.0.0.1:9/production/inApps/v1/subscriptions/42",
                "http://127.0.0.1:9/sandbox/inApps/v1/subscriptions/42",
            ])
    }

    @Test("Not found in either environment: Apple's 4040005 comes back as the answer, not retried")
    func notFoundAnywhere() async throws {
        let notFound = try AppStoreFixtures.text("originalTransactionIdNotFoundError")
        let transport = CannedTransport(sequence: [.success(AppleHTTPResponse(status: 404, json: notFound))])
        let failure = try #require(try await client(transport).allSubscriptionStatuses(transactionID: "42").failure)
        #expect(failure.apiError == .originalTransactionIDNotFound)
        #expect(failure.apiError?.isNotFoundInEnvironment == true)
        #expect(failure.environment == .sandbox)
        #expect(transport.requests.count == 2)
    }

    @Test("A 200 without a data array is malformed: retried, then unreachable")
    func malformedIsRetried() async throws {
        let transport = CannedTransport(sequence: [.success(AppleHTTPResponse(status: 200, json: #"{"data": {}}"#))])
        let result = try await client(transport).allSubscriptionStatuses(transactionID: "42")
        guard case .unreachable(_, let attempts) = result else {
            Issue.record("expected unreachable, got \(result)")
            return
        }
        #expect(attempts == 4)
    }

    @Test("Apple's published rate limit for Get All Subscription Statuses: 50 requests per second")
    func rateLimitTable() {
        // https://developer.apple.com/documentation/appstoreserverapi/identifying-rate-limits
        #expect(RateLimiter.appleDefaults[.subscriptionStatuses] == 50)
    }
}
