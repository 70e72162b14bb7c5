import AppStoreTestSigning
import Foundation
import IAPReconTestSupport
import Logging
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconModel
@testable import ReconStorage
@testable import ReconVerify

/// Get All Subscription Statuses brings a renewal info's `commitmentInfo` (CONTRACT §7): kept, with the charge's
/// commitment, like a notification's.
@Suite struct SubscriptionStatusCommitmentTests {
    let dir = TemporaryDirectory("status-commitment")
    static let now: Int64 = 1_795_176_000_000
    static let day: Int64 = 86_400_000

    @Test func theRenewalInfosCommitmentIsKeptAndCommitmentsReadIt() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let transaction = AppleWordNotifications.transaction(
            "m2", original: "m1", product: "premium.yearly", type: "Auto-Renewable Subscription",
            purchased: Self.now - 5 * Self.day, expires: Self.now + 25 * Self.day, price: 9_990,
            signedDate: Self.now - 5 * Self.day, commitment: (2, 119_880, Self.now + 330 * Self.day))
        let renewal = AppleWordNotifications.renewal(
            original: "m1", product: "premium.yearly", signedDate: Self.now - Self.day, commitmentAutoRenew: 0)
        let body: [String: Any] = [
            "environment": "Production", "bundleId": AppleWordNotifications.bundle, "appAppleId": 1_234,
            "data": [
                [
                    "subscriptionGroupIdentifier": "g1",
                    "lastTransactions": [
                        [
                            "originalTransactionId": "m1", "status": 1,
                            "signedTransactionInfo": try AppleWordNotifications.signed(transaction),
                            "signedRenewalInfo": try AppleWordNotifications.signed(renewal),
                        ] as [String: Any]
                    ],
                ] as [String: Any]
            ],
        ]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        let transport = CannedTransport(sequence: [.success(AppleHTTPResponse(status: 200, json: json))])
        let client = try AppStoreServerAPIClient(
            key: AppStoreServerAPIClientTests.key(), endpoints: .loopback, transport: transport,
            retryPolicy: .testing(clock: ManualClock(millis: Self.now)), rateLimiter: .unlimited())
        let verifier = SignedDataVerifier(
            trust: try TrustStore(roots: []).adding(der: authority.rootDER),
            expectedBundleIDs: [AppleWordNotifications.bundle])
        let sweep = SubscriptionStatusSweep(
            client: client, verifier: verifier, lookbackMillis: 60 * Self.day, concurrency: 1)
        let outcome = await sweep.ask("m1")
        guard case .answered(let answer) = outcome else {
            Issue.record("not answered: \(outcome)")
            return
        }
        #expect(answer.renewalCommitment?.commitmentAutoRenewStatus == 0)
        let store = try ReconStore(path: dir.file("s.sqlite"))
        var summary = SubscriptionStatusSummary()
        try sweep.keep(
            outcome, store: store,
            run: RunContext(runID: nil, asOf: Self.now, givenAsOf: Self.now, clock: ManualClock(millis: Self.now)),
            asOf: Self.now, logger: .quiet, into: &summary)
        let renewals = try store.appleWord.renewalCommitments(asOf: Self.now)
        #expect(renewals["m1"]?.commitmentAutoRenewStatus == 0)
        #expect(try store.appleWord.renewalCommitments(asOf: Self.now - 2 * Self.day).isEmpty)
        let statements = try store.appleWord.commitmentStatements(asOf: Self.now)
        #expect(statements.map(\.transactionID) == ["m2"])
        #expect(statements.first?.terms.commitmentPrice == 119_880)
    }

    @Test func aStatementKeptTwiceIsKeptOnceAsFirstLearned() throws {
        let store = try ReconStore(path: dir.file("twice.sqlite"))
        var entry = EvidenceEntry(
            transactionID: "m2", originalTransactionID: "m1", productID: "premium.yearly",
            purchaseDate: Self.now - Self.day, expiresDate: Self.now + 29 * Self.day,
            price: Money(milliunits: 9_990, currency: "USD"), environment: .production, signedDate: Self.now - Self.day)
        entry.commitment = CommitmentTerms(
            billingPlanType: "MONTHLY", billingPeriodNumber: 2, totalBillingPeriods: 12, commitmentPrice: 119_880,
            commitmentExpiresDate: Self.now + 330 * Self.day)
        entry.appTransactionID = "app-1"
        for learned in [Self.now - Self.day, Self.now] {
            try store.receipts.recordVerification(
                VerificationRecord(
                    recordIDs: [], transactionID: "m2", source: .serverAPI, environment: .production,
                    outcome: .valid, entries: [entry], signature: .verified),
                runID: nil, at: learned, learnedAt: learned)
        }
        #expect(try store.appleWord.commitmentStatements(asOf: Self.now).count == 1)
        #expect(try store.appleWord.commitmentStatements(asOf: Self.now - Self.day).count == 1)
        #expect(try store.appleWord.transactions(appTransactionID: "app-1").map(\.transactionID) == ["m2"])
    }
}
