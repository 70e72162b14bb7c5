import AppStoreSimulator
import Foundation
import IAPReconTestSupport
import Logging
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// The subscription status sweep of `verify` and `run` (CONTRACT §3 subscriptions) against the simulator: which
/// subscriptions it asks about, what it keeps, and what it does when Apple says nothing usable.
@Suite struct SubscriptionStatusSweepTests {
    let dir = TemporaryDirectory("status-sweep")
    let fixture = SubscriptionStatusFixture()
    let logger = Logger.quiet
    static let day = SubscriptionStatusFixture.day

    /// A store holding the fixture's entitlements.
    func store() throws -> ReconStore {
        let store = try ReconStore(path: dir.file("s.sqlite"), clock: ManualClock(millis: fixture.now))
        _ = try Importer().run(
            ImportRequest(entitlements: [try dir.write("entitlements.csv", fixture.entitlementsCSV)]), into: store)
        return store
    }

    func sweep(
        _ simulator: AppStoreSimulator, _ transport: AsyncHTTPTransport, trust: TrustStore? = nil,
        attempts: Int = 4
    ) throws -> SubscriptionStatusSweep {
        let client = try AppStoreServerAPIClient(
            key: SimFixture.apiKey(), endpoints: simulator.endpoints(requestTimeout: .seconds(20), concurrency: 4),
            transport: transport, retryPolicy: SimFixture.fastPolicy(maxAttempts: attempts), rateLimiter: .unlimited())
        let verifier = SignedDataVerifier(
            trust: trust ?? TrustStore(roots: [simulator.authority.root]), expectedBundleIDs: [SimFixture.bundleID])
        return SubscriptionStatusSweep(
            client: client, verifier: verifier, lookbackMillis: 60 * Self.day, concurrency: 4)
    }

    /// The run the sweep works in: as of the fixture's now.
    var run: RunContext {
        RunContext(runID: nil, asOf: fixture.now, givenAsOf: fixture.now, clock: ManualClock(millis: fixture.now))
    }

    func statuses(_ store: ReconStore) throws -> [String: SubscriptionStatus] {
        Dictionary(
            try store.entitlements.subscriptionStatuses(learnedBy: fixture.now).map { ($0.originalTransactionID, $0) },
            uniquingKeysWith: { first, _ in first })
    }

    /// Apple's `status` values (https://developer.apple.com/documentation/appstoreserverapi/status), each verified
    /// and stored with what the signed transaction and renewal info say.
    @Test func eachOfApplesFiveStatesIsVerifiedAndStored() async throws {
        try await withSimulator(seed: fixture.seed) { simulator, transport in
            let store = try store()
            let summary = try await sweep(simulator, transport).run(store: store, in: run, logger: logger)
            #expect(summary.asked == 8)
            #expect(summary.recorded == 7)
            #expect(summary.notFound == 1)
            #expect(summary.unreachable == 0 && summary.rejected == 0 && summary.afterAsOf == 0)
            #expect(summary.newEvidence == 7)

            let now = fixture.now
            let day = Self.day
            let usd = Money(milliunits: 4_990, currency: "USD")
            let stored = try statuses(store)
            #expect(
                stored["5100"]
                    == SubscriptionStatus(
                        originalTransactionID: "5100", environment: .production, status: .active,
                        productID: "pro.monthly", expiresDate: now + 20 * day, autoRenew: true, price: usd,
                        learnedAt: now))
            #expect(
                stored["5200"]
                    == SubscriptionStatus(
                        originalTransactionID: "5200", environment: .production, status: .billingGracePeriod,
                        productID: "pro.monthly", expiresDate: now - 5 * day, gracePeriodExpiresDate: now + 11 * day,
                        autoRenew: true, price: usd, learnedAt: now))
            #expect(
                stored["5300"]
                    == SubscriptionStatus(
                        originalTransactionID: "5300", environment: .production, status: .billingRetry,
                        productID: "pro.monthly", expiresDate: now - 20 * day, gracePeriodExpiresDate: now - 4 * day,
                        autoRenew: true, price: usd, learnedAt: now))
            #expect(
                stored["5400"]
                    == SubscriptionStatus(
                        originalTransactionID: "5400", environment: .production, status: .expired,
                        productID: "pro.monthly", expiresDate: now - 70 * day, autoRenew: false, price: usd,
                        learnedAt: now))
            #expect(
                stored["5500"]
                    == SubscriptionStatus(
                        originalTransactionID: "5500", environment: .production, status: .revoked,
                        productID: "pro.monthly", expiresDate: now + 20 * day, autoRenew: true,
                        revocationDate: now - 2 * day, price: usd, learnedAt: now))
            // Known only in sandbox: asked there after production's 4040005, stored as Apple's sandbox word.
            #expect(stored["5600"]?.environment == .sandbox)
            // A refund dated after now has not happened: Apple's signed word shows none.
            #expect(stored["5700"]?.status == .active && stored["5700"]?.revocationDate == nil)
            // 4040005 in both environments: an answer, nothing stored, the stored evidence decides.
            #expect(stored["999999"] == nil)

            // The signed transaction is Server API evidence: refunds and the support lookup see it.
            let refund = try store.entitlements.evidence(originalTransactionID: "5500").filter {
                $0.source == .serverAPI
            }
            #expect(refund.count == 1)
            #expect(refund.first?.entry.cancellationDate == now - 2 * day)
            #expect(refund.first?.signature == .verified)
            #expect(refund.first?.learnedAt == now)
            #expect(
                try store.entitlements.evidence(originalTransactionID: "5100").map(\.entry.transactionID) == ["5101"])
        }
    }

    /// Two users share subscription 5100 (family sharing, a restore on a second account): Apple is asked once a run.
    ///
    /// 3000's entitlement ended in 2024, long before the lookback, and nothing of Apple's says it goes on.
    @Test func asksEachSubscriptionOncePerRunAndSkipsEntitlementsFarInThePast() async throws {
        try await withSimulator(seed: fixture.seed) { simulator, transport in
            let store = try store()
            let sweep = try sweep(simulator, transport)
            _ = try await sweep.run(store: store, in: run, logger: logger)
            #expect(simulator.requestLog.count(path: "/production/inApps/v1/subscriptions/5100") == 1)
            #expect(simulator.requestLog.count(prefix: "/production/inApps/v1/subscriptions/3000") == 0)
            let asked = simulator.requestLog.requests.filter {
                $0.path.hasPrefix("/production/inApps/v1/subscriptions/")
            }
            #expect(Set(asked.map(\.path)).count == asked.count)

            // The next run asks again, once, and keeps no second copy of what the store already knows.
            let evidence = try store.entitlements.evidence(originalTransactionID: "5100").count
            let again = try await sweep.run(store: store, in: run, logger: logger)
            #expect(again.recorded == 7)
            #expect(again.newEvidence == 0)
            #expect(try store.entitlements.evidence(originalTransactionID: "5100").count == evidence)
            #expect(simulator.requestLog.count(path: "/production/inApps/v1/subscriptions/5100") == 2)

            // Apple's stored word that 3000 is still in billing retry makes it worth asking: Apple now says expired.
            try store.entitlements.recordSubscriptionStatus(
                SubscriptionStatus(
                    originalTransactionID: "3000", environment: .production, status: .billingRetry,
                    learnedAt: fixture.now - Self.day))
            #expect(try await sweep.run(store: store, in: run, logger: logger).asked == 9)
            #expect(simulator.requestLog.count(path: "/production/inApps/v1/subscriptions/3000") == 1)
            #expect(try statuses(store)["3000"]?.status == .expired)
        }
    }

    /// The simulator's chain does not reach the roots the sweep trusts: every JWS is rejected, counted, not used.
    @Test func aJWSSignedByAnUntrustedKeyIsRejected() async throws {
        try await withSimulator(seed: fixture.seed) { simulator, transport in
            let store = try store()
            let summary = try await sweep(simulator, transport, trust: .apple).run(
                store: store, in: run, logger: logger)
            #expect(summary.rejected == 7)
            #expect(summary.recorded == 0 && summary.newEvidence == 0)
            #expect(try store.entitlements.subscriptionStatuses(learnedBy: fixture.now).isEmpty)
            #expect(try store.receipts.verificationCount(source: .serverAPI) == 0)
            #expect(summary.line.contains("7 rejected (stored evidence decides for those)"))
        }
    }

    /// Apple answering 503 for the whole retry budget: nothing stored, the sweep ends normally.
    @Test func appleUnreachableStoresNothingAndTheRunGoesOn() async throws {
        let faults = FaultPlan([.always(at: nil, .httpStatus(503, errorCode: nil))])
        try await withSimulator(seed: fixture.seed, faults: faults) { simulator, transport in
            let store = try store()
            let summary = try await sweep(simulator, transport, attempts: 2).run(store: store, in: run, logger: logger)
            #expect(summary.asked == 8 && summary.unreachable == 8 && summary.recorded == 0)
            #expect(try store.entitlements.subscriptionStatuses(learnedBy: fixture.now).isEmpty)
        }
    }

    /// An `--as-of` in the past: Apple answers as of today, so an answer that speaks of later events (the refund of
    /// 5500 two days ago, for an as-of a week ago) is evidence, not Apple's status at the as-of.
    @Test func anAnswerAboutALaterMomentIsNotTheStatusAtThePastAsOf() async throws {
        try await withSimulator(seed: fixture.seed) { simulator, transport in
            let store = try store()
            let asOf = fixture.now - 7 * Self.day
            let past = RunContext(runID: nil, asOf: asOf, givenAsOf: asOf, clock: ManualClock(millis: fixture.now))
            let summary = try await sweep(simulator, transport).run(store: store, in: past, logger: logger)
            let stored = try store.entitlements.subscriptionStatuses(learnedBy: asOf)
            // 5200's period ended five days ago, 5300's grace period four days ago, 5500 was refunded two days ago,
            // 5600 and 5700 were bought five days ago: all after the as-of.
            #expect(!stored.map(\.originalTransactionID).contains("5200"))
            #expect(!stored.map(\.originalTransactionID).contains("5500"))
            #expect(stored.first { $0.originalTransactionID == "5100" }?.status == .active)
            #expect(summary.afterAsOf == 5)
            #expect(stored.map(\.originalTransactionID) == ["5100", "5400"])
        }
    }
}
