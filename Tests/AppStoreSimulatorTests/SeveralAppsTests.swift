import AppStoreSimulator
import Foundation
import IAPRecon
import Testing

/// A Server API token names one app (`bid`); Apple answers another app's transaction id with
/// "not found" (App Store Server API, "Generating JSON Web Tokens for API requests": `bid`).
@Suite("Several bundle ids against the simulator")
struct SeveralAppsTests {
    static let otherApp = "com.example.other"

    static func seed() -> SimulatorSeed {
        var seed = SimFixture.seed()
        seed.transactions.append(
            SimulatorTransaction(
                transactionId: "5000", productId: "other.coins", bundleId: otherApp, environment: "Production",
                purchaseDate: 1_700_000_000_000, type: "Consumable", price: 1_990, currency: "USD", storefront: "USA"))
        return seed
    }

    func client(_ simulator: AppStoreSimulator, _ transport: AsyncHTTPTransport, others: [String]) throws
        -> AppStoreServerAPIClient
    {
        try AppStoreServerAPIClient(
            key: SimFixture.apiKey(), otherBundleIDs: others,
            endpoints: simulator.endpoints(requestTimeout: .seconds(20)),
            transport: transport, retryPolicy: SimFixture.fastPolicy(), rateLimiter: .unlimited())
    }

    @Test("another app's transaction is asked with that app's token")
    func tokenCarriesTheTransactionsBundle() async throws {
        try await withSimulator(seed: Self.seed()) { simulator, transport in
            let both = try client(simulator, transport, others: [Self.otherApp])
            let answer = try #require(await both.transactionInfo(transactionID: "5000").value)
            #expect(jwsPayload(answer.signedTransactionInfo)?["bundleId"] as? String == Self.otherApp)
            let own = try #require(await both.transactionInfo(transactionID: "1000").value)
            #expect(own.attempts == 1)
        }
    }

    @Test("with only the first bundle id, the other app's transaction is not found")
    func firstBundleOnlyIsNotFound() async throws {
        try await withSimulator(seed: Self.seed()) { simulator, transport in
            let first = try client(simulator, transport, others: [])
            guard case .failure(let failure) = await first.transactionInfo(transactionID: "5000") else {
                Issue.record("expected Apple's not found")
                return
            }
            #expect(failure.apiError?.isNotFoundInEnvironment == true)
        }
    }
}
