import Foundation
import Testing

@testable import AppStoreSimulator
@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// The simulator's verifyReceipt tells the truth in time: an answer made at T shows a refund, a reversal or an
/// upgrade only once it happened, and the fields Apple documents for `in_app` / `latest_receipt_info`
/// (https://developer.apple.com/documentation/appstorereceipts/responsebody/latest_receipt_info):
/// `in_app_ownership_type`, `is_trial_period`, `is_in_intro_offer_period`, `is_upgraded` with the upgrade's
/// `cancellation_date`.
@Suite struct SimulatedVerifyReceiptTimeTests {
    static let day: Int64 = 86_400_000
    static let bought: Int64 = 1_780_000_000_000
    static let upgradedAt = bought + 10 * day
    static let refundedAt = bought + 12 * day
    static let reversedAt = bought + 20 * day

    static let seed = SimulatorSeed(
        bundleId: SimFixture.bundleID,
        transactions: [
            SimulatorTransaction(
                transactionId: "5000", productId: "basic.monthly", purchaseDate: bought,
                expiresDate: bought + 30 * day, type: "Auto-Renewable Subscription", price: 4_990, currency: "USD",
                storefront: "USA", webOrderLineItemId: "9100"),
            SimulatorTransaction(
                transactionId: "5001", originalTransactionId: "5000", productId: "premium.monthly",
                purchaseDate: upgradedAt, expiresDate: upgradedAt + 30 * day, type: "Auto-Renewable Subscription",
                price: 9_990, currency: "USD", storefront: "USA", webOrderLineItemId: "9101",
                upgradedFromTransactionId: "5000"),
            SimulatorTransaction(
                transactionId: "5002", productId: "coins.100", purchaseDate: bought, price: 990, currency: "USD",
                storefront: "USA", revocationDate: refundedAt, revocationReason: 1, revocationType: "REFUND_FULL",
                refundReversedDate: reversedAt),
            SimulatorTransaction(
                transactionId: "5004", productId: "pro.lifetime", purchaseDate: bought, type: "Non-Consumable",
                price: 0, currency: "USD", storefront: "USA", inAppOwnershipType: "FAMILY_SHARED"),
            SimulatorTransaction(
                transactionId: "5005", productId: "basic.monthly", purchaseDate: bought,
                expiresDate: bought + 7 * day, type: "Auto-Renewable Subscription", price: 0, currency: "USD",
                storefront: "USA", webOrderLineItemId: "9200", offerType: 1, offerDiscountType: "FREE_TRIAL"),
        ],
        receipts: [
            SimulatorReceipt(
                data: "receipt-in-time", environment: "Production",
                transactionIds: ["5000", "5001", "5002", "5004", "5005"])
        ])

    /// The answer made at `at` (epoch ms), as Apple's JSON and as the client reads it.
    static func answer(at: Int64) throws -> (json: [String: Any], entries: [String: EvidenceEntry]) {
        let store = try SimulatorStore(seed)
        let reply = SimulatedVerifyReceipt.answer(
            store: store, endpoint: .production, body: Data(#"{"receipt-data": "receipt-in-time"}"#.utf8),
            now: Date(timeIntervalSince1970: Double(at) / 1000))
        let json = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        let body = try #require(VerifyReceiptParser.parse(reply.body))
        let parsed = VerifyReceiptParser.answer(
            from: body, answeredBy: .production, endpoint: URL(fileURLWithPath: "/verifyReceipt"),
            statuses: [0], attempts: 1)
        // The in_app entry of each id (latest_receipt_info repeats the subscriptions).
        var entries: [String: EvidenceEntry] = [:]
        for entry in parsed.inApp { entries[entry.transactionID] = entry }
        return (json, entries)
    }

    static func inApp(_ json: [String: Any], _ id: String) throws -> [String: Any] {
        let receipt = try #require(json["receipt"] as? [String: Any])
        let list = try #require(receipt["in_app"] as? [[String: Any]])
        return try #require(list.first { $0["transaction_id"] as? String == id })
    }

    @Test func beforeTheUpgradeAndTheRefundNothingShows() throws {
        let (json, entries) = try Self.answer(at: Self.bought + Self.day)
        #expect(entries["5001"] == nil)  // bought later
        #expect(entries["5000"]?.cancellationDate == nil && entries["5000"]?.isUpgraded == nil)
        #expect(entries["5002"]?.cancellationDate == nil)
        #expect(try Self.inApp(json, "5000")["is_upgraded"] == nil)
        let receipt = try #require(json["receipt"] as? [String: Any])
        #expect(receipt["receipt_creation_date_ms"] as? String == String(Self.bought))
    }

    @Test func afterTheUpgradeAndTheRefundBothShowAsAppleWritesThem() throws {
        let (json, entries) = try Self.answer(at: Self.refundedAt + Self.day)
        let basic = try Self.inApp(json, "5000")
        #expect(basic["is_upgraded"] as? String == "true")
        #expect(basic["cancellation_date_ms"] as? String == String(Self.upgradedAt))
        #expect(basic["is_in_intro_offer_period"] as? String == "false")
        #expect(entries["5000"]?.isUpgraded == true && entries["5000"]?.cancellationDate == Self.upgradedAt)
        let coins = try Self.inApp(json, "5002")
        #expect(coins["cancellation_date_ms"] as? String == String(Self.refundedAt))
        #expect(coins["cancellation_reason"] as? String == "1")
        #expect(entries["5002"]?.isUpgraded == nil)
        let latest = try #require(json["latest_receipt_info"] as? [[String: Any]])
        #expect(latest.contains { $0["transaction_id"] as? String == "5001" })
    }

    @Test func afterTheReversalTheRefundIsGone() throws {
        let (_, entries) = try Self.answer(at: Self.reversedAt + Self.day)
        #expect(entries["5002"]?.cancellationDate == nil)
        #expect(entries["5000"]?.isUpgraded == true)
    }

    @Test func ownershipAndFreeTrialAsTheSeedStatesThem() throws {
        let (json, entries) = try Self.answer(at: Self.bought + Self.day)
        #expect(try Self.inApp(json, "5004")["in_app_ownership_type"] as? String == "FAMILY_SHARED")
        #expect(try Self.inApp(json, "5005")["is_trial_period"] as? String == "true")
        #expect(try Self.inApp(json, "5000")["is_trial_period"] as? String == "false")
        #expect(entries["5005"]?.offer == .freeTrial)
        #expect(entries["5004"]?.inAppOwnershipType == "FAMILY_SHARED")
    }
}
