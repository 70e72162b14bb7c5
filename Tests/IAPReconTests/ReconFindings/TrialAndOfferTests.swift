import Foundation
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

/// Free trials and introductory offers are worth Apple's price, never the catalog's: `is_trial_period`
/// (https://developer.apple.com/documentation/appstorereceipts/is_trial_period), `is_in_intro_offer_period`
/// (https://developer.apple.com/documentation/appstorereceipts/is_in_intro_offer_period), JWS `offerType`
/// (https://developer.apple.com/documentation/appstoreserverapi/offertype) and `price`
/// (https://developer.apple.com/documentation/appstoreserverapi/price).
@Suite struct TrialAndOfferTests {
    static let utc = TimeZone(secondsFromGMT: 0) ?? .current

    /// A `monthly` subscription row (catalog price 2.99) with the recorded price given.
    static func row(_ tx: String, price: Money?) -> LedgerTransaction {
        Fx.row("r-\(tx)", tx: tx, product: "monthly", price: price)
    }

    /// Apple's verifyReceipt entry for a `monthly` subscription, with its offer flags as Apple spells them.
    static func answer(_ tx: String, trial: String, intro: String) throws -> EvidenceRecord {
        let json = """
            {"quantity": "1", "product_id": "monthly", "transaction_id": "\(tx)",
             "original_transaction_id": "\(tx)", "purchase_date_ms": "\(Fx.asOf - 3 * Fx.day)",
             "expires_date_ms": "\(Fx.asOf + 4 * Fx.day)", "web_order_line_item_id": "\(tx)0",
             "is_trial_period": "\(trial)", "is_in_intro_offer_period": "\(intro)",
             "in_app_ownership_type": "PURCHASED"}
            """
        let value = try #require(AppleJSONValue.parse(Data(json.utf8)))
        let entry = try #require(VerifyReceiptParser.entry(from: value, bundleID: nil))
        return Fx.verifyReceipt(tx, product: "monthly") { $0 = entry }
    }

    /// The revenue of `groups` at as-of.
    static func revenue(_ groups: [TransactionGroup]) -> RevenueBuilder {
        var builder = RevenueBuilder(timeZone: utc, context: Fx.context())
        for group in groups { builder.add(group) }
        return builder
    }

    @Test func verifyReceiptIsTrialPeriodIsWorthZero() throws {
        let trial = try Self.answer("3000000100", trial: "true", intro: "false")
        #expect(trial.entry.isTrialPeriod == true && trial.entry.offer == .freeTrial)
        // The backend recorded no price: the catalog's 2.99 is not what the customer paid.
        let unpriced = Fx.group("3000000100", [Self.row("3000000100", price: nil)], [trial])
        DetectorCase(name: "free trial, no recorded price", groups: [unpriced], expected: []).check()
        let rows = Self.revenue([unpriced]).rows()
        #expect(rows.map(\.gross) == [0] && rows.map(\.units) == [1])
        // The backend recorded the trial at 0: nothing to compare with the catalog.
        DetectorCase(
            name: "free trial recorded at 0",
            groups: [Fx.group("3000000100", [Self.row("3000000100", price: Fx.usd(0))], [trial])], expected: []
        ).check()
        // The backend booked the catalog price for a free trial: Apple charged 0.
        let overbooked = Fx.group("3000000100", [Self.row("3000000100", price: Fx.usd(2_990))], [trial])
        DetectorCase(
            name: "free trial booked at the catalog price", groups: [overbooked],
            expected: [ExpectedFinding(.priceMismatch, "3000000100", users: ["u1"], amount: Fx.usd(2_990))]
        ).check()
        #expect(Self.revenue([overbooked]).rows().map(\.gross) == [0])
        // Paid nothing and got nothing: still a missing record, worth Apple's 0.
        DetectorCase(
            name: "free trial missing from the ledger", groups: [Fx.group("3000000100", [], [trial])],
            expected: [ExpectedFinding(.missingRecord, "3000000100", users: ["u1"], amount: Fx.usd(0))]
        ).check()
    }

    @Test func verifyReceiptIntroOfferIsNeverTheCatalogPrice() throws {
        let intro = try Self.answer("3000000200", trial: "false", intro: "true")
        #expect(intro.entry.offer == .discounted)
        // Recorded at the introductory 0.99: no PRICE_MISMATCH against the catalog's 2.99.
        let booked = Fx.group("3000000200", [Self.row("3000000200", price: Fx.usd(990))], [intro])
        DetectorCase(name: "intro offer at its price", groups: [booked], expected: []).check()
        #expect(Self.revenue([booked]).rows().map(\.gross) == [990])
        // Nothing states the intro price: unpriced, never the catalog's.
        let unpriced = Self.revenue([Fx.group("3000000200", [Self.row("3000000200", price: nil)], [intro])])
        #expect(unpriced.rows().isEmpty && unpriced.unpricedTransactions == 1)
        // Near miss: no offer flag, the catalog compares.
        let plain = try Self.answer("3000000300", trial: "false", intro: "false")
        DetectorCase(
            name: "no offer: the catalog price compares",
            groups: [Fx.group("3000000300", [Self.row("3000000300", price: Fx.usd(990))], [plain])],
            expected: [ExpectedFinding(.priceMismatch, "3000000300", users: ["u1"], amount: Fx.usd(2_000))]
        ).check()
    }

    @Test func jwsIntroductoryOfferAtZeroIsAFreeTrial() {
        let free = Fx.jws("3000000400", product: "monthly", price: Fx.usd(0))
        var offer = free
        offer.entry.offerType = 1
        #expect(offer.entry.offer == .freeTrial)
        let group = Fx.group("3000000400", [Self.row("3000000400", price: nil)], [offer])
        DetectorCase(name: "JWS offerType 1, price 0", groups: [group], expected: []).check()
        #expect(Self.revenue([group]).rows().map(\.gross) == [0])
    }

    /// Apple's price 0 is what the purchase was worth, whatever the ledger booked.
    @Test func applePriceZeroIsTheValue() {
        let group = Fx.group(
            "3000000500", [Self.row("3000000500", price: Fx.usd(2_990))],
            [Fx.jws("3000000500", product: "monthly", price: Fx.usd(0))])
        #expect(Self.revenue([group]).rows().map(\.gross) == [0])
    }

    /// Apple's own vector (`signedTransaction.json`: `offerType` 1, `PAY_AS_YOU_GO`, `price` 10990), in
    /// Production: worth Apple's 10.99, never the catalog's 2.99.
    @Test func applesIntroductoryOfferVectorIsWorthApplesPrice() throws {
        let data = try Data(contentsOf: ReceiptFixtures.url("apple-server-library/models/signedTransaction.json"))
        var payload = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: data)
        payload.environment = "Production"
        payload.productId = "monthly"
        var evidence = try #require(payload.evidence.entries.first)
        #expect(evidence.offerType == 1 && evidence.offerDiscountType == "PAY_AS_YOU_GO")
        #expect(evidence.offer == .discounted)
        evidence.bundleID = Fx.bundle
        let record = EvidenceRecord(
            entry: evidence, source: .serverAPI, bundleID: Fx.bundle, signature: .verified, recordedAt: Fx.asOf)
        let tx = evidence.transactionID
        let row = Fx.row("r1", tx: tx, product: "monthly", original: evidence.originalTransactionID, price: nil)
        let group = Fx.group(tx, [row], [record])
        DetectorCase(name: "Apple's intro offer vector", groups: [group], expected: []).check()
        #expect(Self.revenue([group]).rows().map(\.gross) == [10_990])
    }

    /// Apple signed the real receipt `nutcall-sandbox-sha1-187`; one of its 187 entries is in a free trial (field
    /// 1713 = 1).
    @Test func theRealReceiptsFreeTrialEntryIsFlagged() async throws {
        let data = try ReceiptFixtures.text("real-receipts/nutcall-sandbox-sha1-187.b64")
        let evidence = try await AppReceiptDecoder().decode(data).get()
        let trials = evidence.entries.filter { $0.offer == .freeTrial }
        #expect(trials.map(\.transactionID) == ["1000000637840616"])
        #expect(trials.first?.isTrialPeriod == true && trials.first?.isInIntroOfferPeriod == false)
        #expect(evidence.entries.allSatisfy { $0.receiptCreationDate == 1_588_789_729_000 })
        #expect(evidence.entries.allSatisfy { $0.isUpgraded == nil })
    }
}
