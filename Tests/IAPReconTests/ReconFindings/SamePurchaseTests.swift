import Foundation
import IAPReconTestSupport
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

/// One purchase, many transaction ids.
///
/// A restored non-consumable gets a new transaction id with the purchase's
/// `original_transaction_id` (https://developer.apple.com/documentation/appstorereceipts/original_transaction_id);
/// a subscription period bought or restored on another device keeps its `web_order_line_item_id`, "a unique
/// identifier for purchase events across devices"
/// (https://developer.apple.com/documentation/appstorereceipts/web_order_line_item_id). It is one purchase: never
/// `MISSING_RECORD` while the ledger books any id of it, never revenue twice.
@Suite struct SamePurchaseTests {
    let dir = TemporaryDirectory("same-purchase")
    static let utc = TimeZone(secondsFromGMT: 0) ?? .current
    static let purchase = "4000000100"
    static let restore = "4000000101"

    /// Apple's verifyReceipt `in_app` entry for a restore of `premium` (a non-consumable), as Apple spells it.
    static func restoreEntry() throws -> EvidenceRecord {
        let json = """
            {"quantity": "1", "product_id": "premium", "transaction_id": "\(restore)",
             "original_transaction_id": "\(purchase)", "purchase_date_ms": "\(Fx.asOf - Fx.day)",
             "original_purchase_date_ms": "\(Fx.asOf - 3 * Fx.day)", "is_trial_period": "false",
             "in_app_ownership_type": "PURCHASED"}
            """
        let value = try #require(AppleJSONValue.parse(Data(json.utf8)))
        let entry = try #require(VerifyReceiptParser.entry(from: value, bundleID: nil))
        return Fx.verifyReceipt(restore, product: "premium") { $0 = entry }
    }

    static let purchaseRow = Fx.row("r1", tx: purchase, product: "premium", price: Fx.usd(4_990))

    /// The context with `members` tied together as the store reads them.
    static func context(_ members: [SamePurchaseIndex.Member]) -> DetectionContext {
        var context = Fx.context()
        context.samePurchase = SamePurchaseIndex(members)
        return context
    }

    static let restoreMembers = [
        SamePurchaseIndex.Member(
            link: .originalTransaction(purchase), transactionID: purchase, bookedAt: Fx.asOf - 3 * Fx.day),
        SamePurchaseIndex.Member(link: .originalTransaction(purchase), transactionID: restore, bookedAt: nil),
    ]

    @Test func aRestoreOfABookedPurchaseIsNotMissing() throws {
        let restore = try Self.restoreEntry()
        let groups = [Fx.group(Self.purchase, [Self.purchaseRow]), Fx.group(Self.restore, [], [restore])]
        DetectorCase(
            name: "restore of a booked non-consumable", groups: groups, context: Self.context(Self.restoreMembers),
            expected: []
        ).check()
        // Near miss: nothing ties it to the booked purchase (another original id): paid and got nothing.
        DetectorCase(
            name: "a purchase the ledger never booked", groups: groups,
            expected: [ExpectedFinding(.missingRecord, Self.restore, users: ["u1"], amount: Fx.usd(4_990))]
        ).check()
    }

    @Test func aSecondDevicesTransactionOfOneSubscriptionPeriodIsNotMissing() {
        let period = "230000000000777"
        let first = Fx.jws("4000000200", product: "monthly", price: Fx.usd(2_990))
        var other = Fx.jws("4000000201", product: "monthly", price: Fx.usd(2_990))
        other.entry.originalTransactionID = "4000000200"
        other.entry.webOrderLineItemID = period
        var renewal = Fx.jws("4000000202", product: "monthly", price: Fx.usd(2_990))
        renewal.entry.originalTransactionID = "4000000200"
        renewal.entry.webOrderLineItemID = "230000000000778"
        let members = [
            SamePurchaseIndex.Member(
                link: .webOrderLineItem(period), transactionID: "4000000200", bookedAt: Fx.asOf - 3 * Fx.day),
            SamePurchaseIndex.Member(link: .webOrderLineItem(period), transactionID: "4000000201", bookedAt: nil),
        ]
        DetectorCase(
            name: "same period on a second device; a renewal the ledger lacks is still missing",
            groups: [
                Fx.group(
                    "4000000200", [Fx.row("r1", tx: "4000000200", product: "monthly", price: Fx.usd(2_990))], [first]),
                Fx.group("4000000201", [], [other]), Fx.group("4000000202", [], [renewal]),
            ],
            context: Self.context(members),
            expected: [ExpectedFinding(.missingRecord, "4000000202", users: ["u1"], amount: Fx.usd(2_990))]
        ).check()
    }

    /// Booked under both ids: one sale in revenue; the ledger's extra booking is `RESTORE_AS_PURCHASE`.
    @Test func aRestoreBookedAgainIsRevenueOnce() throws {
        let restoreRow = Fx.row(
            "r2", tx: Self.restore, product: "premium", original: Self.purchase, price: Fx.usd(4_990))
        let members = [
            SamePurchaseIndex.Member(
                link: .originalTransaction(Self.purchase), transactionID: Self.purchase, bookedAt: Fx.asOf - 3 * Fx.day),
            SamePurchaseIndex.Member(
                link: .originalTransaction(Self.purchase), transactionID: Self.restore, bookedAt: Fx.asOf - 3 * Fx.day),
        ]
        let context = Self.context(members)
        var builder = RevenueBuilder(timeZone: Self.utc, context: context)
        builder.add(Fx.group(Self.purchase, [Self.purchaseRow]))
        builder.add(Fx.group(Self.restore, [restoreRow], [try Self.restoreEntry()]))
        #expect(builder.rows().map(\.gross) == [4_990])
        #expect(builder.rows().map(\.units) == [1])
        DetectorCase(
            name: "restore booked as revenue",
            groups: [Fx.group(Self.purchase, [Self.purchaseRow]), Fx.group(Self.restore, [restoreRow])],
            originals: [
                OriginalTransactionGroup(originalTransactionID: Self.purchase, records: [Self.purchaseRow, restoreRow])
            ],
            context: context,
            expected: [ExpectedFinding(.restoreAsPurchase, Self.restore, users: ["u1"], amount: Fx.usd(4_990))]
        ).check()
    }

    /// The store ties the ids together: a non-consumable by its original transaction id (by the catalog), a
    /// subscription period by its `web_order_line_item_id`; never a renewal, nor Apple's `0` for purchases that
    /// are no subscription.
    @Test func theStoreReadsTheLinks() throws {
        let store = try ReconStore(path: dir.file("s.sqlite"))
        let writer = try store.ledgerImport.writer(bulk: false)
        try writer.upsert(
            CatalogProduct(productID: "premium", type: .nonConsumable, price: Fx.usd(4_990)), source: "p.csv", line: 2)
        try writer.upsert(
            CatalogProduct(productID: "monthly", type: .autoRenewable, price: Fx.usd(2_990)), source: "p.csv", line: 3)
        try writer.upsert(Self.purchaseRow, source: "t.csv", line: 2)
        try writer.upsert(
            Fx.row("r3", tx: "4000000200", product: "monthly", price: Fx.usd(2_990)), source: "t.csv", line: 3)
        func entry(_ tx: String, product: String, original: String, web: String?) -> EvidenceEntry {
            EvidenceEntry(
                transactionID: tx, originalTransactionID: original, productID: product, webOrderLineItemID: web)
        }
        try store.receipts.recordVerification(
            VerificationRecord(
                recordIDs: [], receiptID: "rc1", source: .verifyReceipt, appleStatus: 0, environment: .production,
                outcome: .valid,
                entries: [
                    entry(Self.purchase, product: "premium", original: Self.purchase, web: "0"),
                    entry(Self.restore, product: "premium", original: Self.purchase, web: "0"),
                    entry("4000000300", product: "gems100", original: "4000000300", web: "0"),
                    entry("4000000200", product: "monthly", original: "4000000200", web: "230000000000777"),
                    entry("4000000201", product: "monthly", original: "4000000200", web: "230000000000777"),
                    entry("4000000202", product: "monthly", original: "4000000200", web: "230000000000778"),
                ]), runID: nil, at: Fx.asOf, learnedAt: Fx.asOf)
        let index = try store.ledger.samePurchaseIndex()
        #expect(Set(index.purchases.keys) == [Self.restore, "4000000201"])
        #expect(index.purchase(of: Self.restore)?.primaryID == Self.purchase)
        #expect(index.purchase(of: "4000000201")?.primaryID == "4000000200")
        #expect(index.bookedPurchase(of: "4000000201", asOf: Fx.asOf)?.link == .webOrderLineItem("230000000000777"))
    }
}
