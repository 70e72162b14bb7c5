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

/// Subscriptions in the older data (verifyReceipt answers, app receipts) as Apple documents them: an upgrade is not
/// a refund, and a receipt speaks as of when it was made.
@Suite struct ReceiptSemanticsTests {
    static let day = Fx.day
    /// The basic plan bought 20 days before as-of, upgraded to premium 10 days before.
    static let bought = Fx.asOf - 20 * day
    static let upgraded = Fx.asOf - 10 * day
    static let original = "2000000100000001"
    static let basic = "2000000100000001"
    static let premium = "2000000100000002"

    static let catalog: [String: [CatalogProduct]] = [
        "basic.monthly": [CatalogProduct(productID: "basic.monthly", type: .autoRenewable, price: Fx.usd(4_990))],
        "premium.monthly": [CatalogProduct(productID: "premium.monthly", type: .autoRenewable, price: Fx.usd(9_990))],
    ]

    /// One `latest_receipt_info` entry, in Apple's documented shape and spelling (strings throughout;
    /// https://developer.apple.com/documentation/appstorereceipts/responsebody/latest_receipt_info).
    static func entry(
        _ tx: String, product: String, purchased: Int64, web: String, cancelled: Int64? = nil,
        upgraded: Bool? = nil, trial: Bool = false, intro: Bool = false
    ) -> String {
        var fields = [
            "\"quantity\": \"1\"", "\"product_id\": \"\(product)\"", "\"transaction_id\": \"\(tx)\"",
            "\"original_transaction_id\": \"\(original)\"", "\"purchase_date_ms\": \"\(purchased)\"",
            "\"original_purchase_date_ms\": \"\(bought)\"", "\"expires_date_ms\": \"\(purchased + 30 * day)\"",
            "\"web_order_line_item_id\": \"\(web)\"", "\"is_trial_period\": \"\(trial)\"",
            "\"is_in_intro_offer_period\": \"\(intro)\"", "\"in_app_ownership_type\": \"PURCHASED\"",
            "\"subscription_group_identifier\": \"20906883\"",
        ]
        if let cancelled {
            fields += ["\"cancellation_date_ms\": \"\(cancelled)\"", "\"cancellation_reason\": \"0\""]
        }
        if let upgraded { fields.append("\"is_upgraded\": \"\(upgraded)\"") }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// A verifyReceipt answer (status 0, Production) for a receipt made at `created` listing `entries`.
    static func answer(created: Int64, _ entries: [String]) -> String {
        """
        {"status": 0, "environment": "Production",
         "receipt": {"receipt_type": "Production", "bundle_id": "\(Fx.bundle)", "application_version": "7",
           "receipt_creation_date_ms": "\(created)", "in_app": []},
         "latest_receipt_info": [\(entries.joined(separator: ", "))]}
        """
    }

    /// The evidence an answer becomes, verified at `recordedAt`.
    static func evidence(_ json: String, recordedAt: Int64) throws -> [EvidenceRecord] {
        let body = try #require(VerifyReceiptParser.parse(Data(json.utf8)))
        let answer = VerifyReceiptParser.answer(
            from: body, answeredBy: .production, endpoint: AppStoreEndpoints.loopback.verifyReceiptProduction,
            statuses: [0], attempts: 1)
        return answer.allEntries.map {
            EvidenceRecord(
                entry: $0, source: .verifyReceipt, receiptID: "rc1", receiptFormat: .appReceipt,
                environment: answer.receiptEnvironment, bundleID: answer.bundleID, appleStatus: answer.status,
                uploaderUserID: "u1", recordedAt: recordedAt)
        }
    }

    /// The two transactions' groups: the basic plan's and the premium plan's rows with their evidence.
    static func groups(_ evidence: [EvidenceRecord], basicStatus: VerificationStatus = .verified) -> [TransactionGroup]
    {
        [
            Fx.group(
                basic,
                [
                    Fx.row(
                        "r1", tx: basic, product: "basic.monthly", original: original, ago: 20 * day,
                        price: Fx.usd(4_990), status: basicStatus)
                ], evidence.filter { $0.entry.transactionID == basic }),
            Fx.group(
                premium,
                [
                    Fx.row(
                        "r2", tx: premium, product: "premium.monthly", original: original, ago: 10 * day,
                        price: Fx.usd(9_990))
                ], evidence.filter { $0.entry.transactionID == premium }),
        ]
    }

    static var upgradeAnswer: String {
        answer(
            created: upgraded + Fx.hour,
            [
                entry(premium, product: "premium.monthly", purchased: upgraded, web: "230000000000002"),
                entry(
                    basic, product: "basic.monthly", purchased: bought, web: "230000000000001", cancelled: upgraded,
                    upgraded: true),
            ])
    }

    /// latest_receipt_info: `is_upgraded` "true" with the upgrade's `cancellation_date` is no customer refund.
    @Test func latestReceiptInfoIsUpgradedIsNoRefund() throws {
        let evidence = try Self.evidence(Self.upgradeAnswer, recordedAt: Self.upgraded + 2 * Fx.hour)
        let basic = try #require(evidence.first { $0.entry.transactionID == Self.basic })
        #expect(basic.entry.isUpgraded == true)
        #expect(basic.entry.receiptCreationDate == Self.upgraded + Fx.hour)
        let context = Fx.context(catalog: Self.catalog)
        DetectorCase(name: "upgrade via verifyReceipt", groups: Self.groups(evidence), context: context, expected: [])
            .check()
        // Marked invalid by a backend that ended the basic plan: correctly ended, not unverified.
        DetectorCase(
            name: "upgrade via verifyReceipt, basic marked invalid",
            groups: Self.groups(evidence, basicStatus: .invalid), context: context, expected: []
        ).check()
        // Revenue keeps the basic plan's sale and books no refund: Apple states no share.
        var builder = RevenueBuilder(timeZone: TimeZone(secondsFromGMT: 0) ?? .current, context: context)
        for group in Self.groups(evidence) { builder.add(group) }
        #expect(builder.rows().map(\.refunds) == [0, 0])
        #expect(builder.rows().map(\.gross) == [4_990, 9_990])
    }

    /// latest_receipt_info: a later answer repeating the upgrade's cancellation without `is_upgraded` (or the
    /// answer's "false") does not turn it into a refund.
    @Test func aLaterAnswerRepeatingTheUpgradeIsNoRefund() throws {
        let first = try Self.evidence(Self.upgradeAnswer, recordedAt: Self.upgraded + 2 * Fx.hour)
        let repeated = try Self.evidence(
            Self.answer(
                created: Fx.asOf - 2 * Self.day,
                [
                    Self.entry(
                        Self.basic, product: "basic.monthly", purchased: Self.bought, web: "230000000000001",
                        cancelled: Self.upgraded, upgraded: false)
                ]), recordedAt: Fx.asOf - Self.day)
        #expect(repeated.first?.entry.isUpgraded == nil)
        DetectorCase(
            name: "upgrade repeated", groups: Self.groups(first + repeated),
            context: Fx.context(catalog: Self.catalog), expected: []
        ).check()
        // The same after Apple's signed word that it was upgraded (JWS isUpgraded).
        let signed = Fx.serverAPI(Self.basic, product: "basic.monthly", price: Fx.usd(4_990)) {
            $0.originalTransactionID = Self.original
            $0.isUpgraded = true
            $0.signedDate = Self.upgraded + Fx.minute
        }
        DetectorCase(
            name: "JWS isUpgraded, then a receipt repeating the cancellation",
            groups: Self.groups([signed] + repeated), context: Fx.context(catalog: Self.catalog), expected: []
        ).check()
    }

    /// Near miss: the same shape with no upgrade (no `is_upgraded`, nothing bought at the cancellation) is a refund.
    @Test func aCancellationWithoutUpgradeIsARefund() throws {
        let evidence = try Self.evidence(
            Self.answer(
                created: Fx.asOf - Self.day,
                [
                    Self.entry(
                        Self.basic, product: "basic.monthly", purchased: Self.bought, web: "230000000000001",
                        cancelled: Self.upgraded)
                ]), recordedAt: Fx.asOf - Self.day)
        DetectorCase(
            name: "a refund in latest_receipt_info", groups: [Self.groups(evidence)[0]],
            context: Fx.context(catalog: Self.catalog),
            expected: [ExpectedFinding(.refundedDelivered, Self.basic, users: ["u1"], amount: Fx.usd(4_990))]
        ).check()
    }

    /// Apple's Receipt Fields, Cancellation Date (field 1712): "For an auto-renewable subscription plan that was
    /// upgraded, the time and date of the upgrade transaction." An app receipt has no `is_upgraded`: the entry
    /// cancelled at the instant another plan of the same original transaction was bought is that upgrade.
    @Test func appReceiptField1712AtTheUpgradeIsNoRefund() throws {
        let receipt = AppReceipt(
            receiptType: "Production", bundleID: Fx.bundle, creationDate: Self.upgraded + Fx.hour,
            inAppPurchases: [
                AppReceiptInAppPurchase(
                    quantity: 1, productID: "basic.monthly", transactionID: Self.basic,
                    originalTransactionID: Self.original, purchaseDate: Self.bought, expiresDate: Self.upgraded,
                    cancellationDate: Self.upgraded, webOrderLineItemID: "230000000000001"),
                AppReceiptInAppPurchase(
                    quantity: 1, productID: "premium.monthly", transactionID: Self.premium,
                    originalTransactionID: Self.original, purchaseDate: Self.upgraded,
                    expiresDate: Self.upgraded + 30 * Self.day, webOrderLineItemID: "230000000000002"),
            ])
        let entries = receipt.evidenceEntries
        #expect(entries.map(\.isUpgraded) == [true, nil])
        #expect(entries.allSatisfy { $0.receiptCreationDate == Self.upgraded + Fx.hour })
        let evidence = entries.map {
            EvidenceRecord(
                entry: $0, source: .offline, receiptID: "rc1", receiptFormat: .appReceipt, environment: .production,
                bundleID: Fx.bundle, signature: .verified, uploaderUserID: "u1", recordedAt: Fx.asOf - Self.day)
        }
        DetectorCase(
            name: "upgrade in an app receipt", groups: Self.groups(evidence),
            context: Fx.context(catalog: Self.catalog), expected: []
        ).check()
        // Near miss: a refund of the same plan (nothing bought at the cancellation) stays a refund.
        var refunded = receipt
        refunded.inAppPurchases[1].purchaseDate = Self.upgraded + Self.day
        #expect(refunded.evidenceEntries.map(\.isUpgraded) == [nil, nil])
    }

    /// Apple's explicit `REFUND_FULL` on an upgraded plan is a refund of the whole price.
    @Test func refundFullAfterAnUpgradeIsARefund() throws {
        let upgrade = try Self.evidence(Self.upgradeAnswer, recordedAt: Self.upgraded + 2 * Fx.hour)
        let refund = Fx.serverAPI(Self.basic, product: "basic.monthly", price: Fx.usd(4_990)) {
            $0.originalTransactionID = Self.original
            $0.isUpgraded = true
            $0.cancellationDate = Self.upgraded + Self.day
            $0.revocationType = "REFUND_FULL"
            $0.signedDate = Self.upgraded + Self.day
        }
        DetectorCase(
            name: "REFUND_FULL after the upgrade", groups: [Self.groups(upgrade + [refund])[0]],
            context: Fx.context(catalog: Self.catalog),
            expected: [ExpectedFinding(.refundedDelivered, Self.basic, users: ["u1"], amount: Fx.usd(4_990))]
        ).check()
    }
}
