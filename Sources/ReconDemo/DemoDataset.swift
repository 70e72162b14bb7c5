import AppStoreSimulator
import AppStoreTestSigning
import Foundation
import IAPRecon

/// A generated, realistic store for the demo: a catalog, a ledger of thousands of purchases over 30 days in USD,
/// EUR and JPY storefronts, receipts in all three formats, and the App Store simulator's seed that agrees with
/// them — with every finding code of SPEC §4 injected on purpose.
///
/// Deterministic for a seed.
public struct DemoDataset: Sendable {
    public var bundleID: String
    public var asOf: Int64
    public var products: String
    public var transactions: String
    public var receipts: String
    public var seed: SimulatorSeed
    /// Transactions whose Server API calls should fail (to show a purchase stuck pending).
    public var unreachableTransactionIDs: [String]
    /// What was injected, by finding code: (code, transaction id).
    public var injected: [(FindingCode, String)]
    /// The days (since 1970-01-01, in ``salesReportTimeZone``) Apple's Summary Sales Reports
    /// cover: quiet days no other anomaly touches.
    public var salesReportDays: [Int] = []
    /// Apple's zone for worldwide agreements, the sales reports' days.
    public static let salesReportTimeZone = "America/Los_Angeles"

    public static let defaultAsOf: Int64 = 1_795_176_000_000  // 2026-11-20T12:00:00Z
    public static let sharedSecret = "demo-shared-secret-7f3a"
}

extension DemoDataset {
    struct Product {
        var id: String
        var type: ProductType
        var appleType: String
        /// Price per storefront (milliunits).
        var prices: [String: Int64]
        var proceeds: String
    }

    static let storefronts: [(code: String, currency: String)] = [
        ("USA", "USD"), ("DEU", "EUR"), ("FRA", "EUR"), ("JPN", "JPY"),
    ]

    static let catalog: [Product] = [
        Product(
            id: "coins_100", type: .consumable, appleType: "Consumable",
            prices: ["USD": 990, "EUR": 990, "JPY": 160_000], proceeds: "0.70"),
        Product(
            id: "coins_1000", type: .consumable, appleType: "Consumable",
            prices: ["USD": 7_990, "EUR": 8_990, "JPY": 1_200_000], proceeds: "0.70"),
        Product(
            id: "remove_ads", type: .nonConsumable, appleType: "Non-Consumable",
            prices: ["USD": 2_990, "EUR": 2_990, "JPY": 480_000], proceeds: "0.70"),
        Product(
            id: "pro_monthly", type: .autoRenewable, appleType: "Auto-Renewable Subscription",
            prices: ["USD": 4_990, "EUR": 5_490, "JPY": 800_000], proceeds: "0.85"),
        Product(
            id: "season_pass", type: .nonRenewing, appleType: "Non-Renewing Subscription",
            prices: ["USD": 9_990, "EUR": 10_990, "JPY": 1_500_000], proceeds: "0.70"),
        // pro_monthly's higher level of service in its subscription group: only the upgrade sells it.
        Product(
            id: "pro_yearly", type: .autoRenewable, appleType: "Auto-Renewable Subscription",
            prices: ["USD": 39_990, "EUR": 44_990, "JPY": 6_000_000], proceeds: "0.85"),
    ]

    /// The products the clean purchases are drawn from.
    static let everydayCatalog = catalog.filter { $0.id != "pro_yearly" }

    /// One ledger row plus how its receipt is made.
    struct Purchase {
        var recordID: String
        var userID: String
        var productID: String
        var transactionID: String
        var originalTransactionID: String
        var purchaseDate: Int64
        var quantity = 1
        var ledgerEnvironment = "Production"
        var price: Int64?
        var currency: String
        var storefront: String
        var status = "verified"
        var deliveredAt: Int64?
        var finishedAt: Int64?
        var receiptID: String?
    }

    /// Generates the dataset.
    ///
    /// - Parameters:
    ///   - seed: the random seed; the same seed gives the same files.
    ///   - purchases: clean purchases to generate (anomalies come on top).
    public static func generate(seed: UInt64 = 1, purchases count: Int = 3_000, asOf: Int64 = defaultAsOf) throws
        -> DemoDataset
    {
        var rng = SplitMix64(seed: seed)
        let bundle = "com.example.recon.demo"
        let authority = try SigningAuthority(options: AppStoreSimulator.defaultAuthorityOptions)
        var rows: [Purchase] = []
        var receiptLines: [String] = []
        var seedTransactions: [SimulatorTransaction] = []
        var seedReceipts: [SimulatorReceipt] = []
        var injected: [(FindingCode, String)] = []
        let hour: Int64 = 3_600_000
        let day: Int64 = 24 * hour

        func price(_ product: Product, _ currency: String) -> Int64 { product.prices[currency] ?? 0 }

        /// Makes the receipt of `p` in `format`, registers Apple's truth, returns the receipt id.
        func addReceipt(
            _ p: Purchase, format: ReceiptFormat, appleEnvironment: String = "Production",
            appleProductID: String? = nil,
            applePrice: Int64? = nil, bundleID: String? = nil, revocation: (Int64, String, Int32?)? = nil,
            claimed: String? = "Production", uploader: String? = nil, receiptID: String? = nil,
            registerTransaction: Bool = true
        ) throws -> String {
            let product = catalog.first { $0.id == (appleProductID ?? p.productID) }
            let appleType = product?.appleType ?? "Consumable"
            // Apple's `price` is the total for the quantity purchased (JWSTransactionDecodedPayload).
            let amount = applePrice ?? (p.price ?? product.map { price($0, p.currency) } ?? 0) * Int64(p.quantity)
            if registerTransaction {
                seedTransactions.append(
                    SimulatorTransaction(
                        transactionId: p.transactionID, originalTransactionId: p.originalTransactionID,
                        productId: appleProductID ?? p.productID, bundleId: bundleID ?? bundle,
                        environment: appleEnvironment,
                        purchaseDate: p.purchaseDate,
                        expiresDate: appleType.hasPrefix("Auto") ? p.purchaseDate + 30 * day : nil,
                        quantity: p.quantity, type: appleType, price: amount, currency: p.currency,
                        storefront: p.storefront,
                        revocationDate: revocation?.0, revocationReason: revocation == nil ? nil : 1,
                        revocationType: revocation?.1, revocationPercentage: revocation?.2.map(Int.init),
                        orderId: "MK" + p.transactionID))
            }
            let id = receiptID ?? "rc-" + p.transactionID
            let data: String
            switch format {
            case .signedTransaction:
                let payload = JWSTransactionDecodedPayload(
                    transactionId: p.transactionID, originalTransactionId: p.originalTransactionID,
                    bundleId: bundleID ?? bundle, productId: appleProductID ?? p.productID,
                    purchaseDate: p.purchaseDate,
                    originalPurchaseDate: p.purchaseDate,
                    expiresDate: appleType.hasPrefix("Auto") ? p.purchaseDate + 30 * day : nil,
                    quantity: Int32(p.quantity),
                    type: appleType, inAppOwnershipType: "PURCHASED", signedDate: p.purchaseDate + 1_000,
                    revocationReason: revocation == nil ? nil : 1, revocationDate: revocation?.0,
                    environment: appleEnvironment,
                    storefront: p.storefront, transactionReason: "PURCHASE", price: amount, currency: p.currency,
                    revocationType: revocation?.1, revocationPercentage: revocation?.2)
                data = try JWSSigner.sign(payload: payload, authority: authority)
            case .appReceipt:
                data = try AppReceiptBuilder.base64Receipt(
                    bundleID: bundleID ?? bundle,
                    receiptType: appleEnvironment == "Production" ? "Production" : "ProductionSandbox",
                    createdAt: p.purchaseDate + 1_000,
                    purchases: [
                        .init(
                            productID: appleProductID ?? p.productID, quantity: p.quantity,
                            transactionID: p.transactionID,
                            originalTransactionID: p.originalTransactionID, purchaseDate: p.purchaseDate,
                            expiresDate: appleType.hasPrefix("Auto") ? p.purchaseDate + 30 * day : nil)
                    ], authority: authority)
                seedReceipts.append(
                    SimulatorReceipt(
                        sha256: ReceiptDigest.sha256Hex(data), environment: appleEnvironment,
                        bundleId: bundleID ?? bundle,
                        transactionIds: [p.transactionID]))
            case .transactionReceipt:
                let info = """
                    {
                    \t"transaction-id" = "\(p.transactionID)";
                    \t"original-transaction-id" = "\(p.originalTransactionID)";
                    \t"product-id" = "\(appleProductID ?? p.productID)";
                    \t"quantity" = "\(p.quantity)";
                    \t"bid" = "\(bundleID ?? bundle)";
                    \t"bvrs" = "1.0";
                    \t"purchase-date-ms" = "\(p.purchaseDate)";
                    \t"original-purchase-date-ms" = "\(p.purchaseDate)";
                    \t"item-id" = "\(1_400_000_000 + (Int(p.transactionID.suffix(6)) ?? 0))";
                    }
                    """
                let environment =
                    appleEnvironment == "Production" ? "" : "\t\"environment\" = \"\(appleEnvironment)\";\n"
                let text = """
                    {
                    \t"signature" = "\(Data("demo signature \(p.transactionID)".utf8).base64EncodedString())";
                    \t"purchase-info" = "\(Data(info.utf8).base64EncodedString())";
                    \(environment)\t"pod" = "100";
                    \t"signing-status" = "0";
                    }
                    """
                data = Data(text.utf8).base64EncodedString()
            }
            var fields = [
                "\"receipt_id\":\"\(id)\"", "\"user_id\":\"\(uploader ?? p.userID)\"",
                "\"received_at\":\"\(Timestamp.iso(p.purchaseDate + 1_500))\"", "\"format\":\"\(format.rawValue)\"",
                "\"data\":\"\(data)\"",
            ]
            if let claimed { fields.append("\"claimed_environment\":\"\(claimed)\"") }
            receiptLines.append("{" + fields.joined(separator: ",") + "}")
            return id
        }

        // Clean purchases: delivered and finished within seconds; the last 36 hours still pending.
        var users: [String] = (1...max(10, count / 3)).map { String(format: "user-%05d", $0) }
        users.shuffle(using: &rng)
        for index in 0..<count {
            let product = everydayCatalog[rng.below(everydayCatalog.count)]
            let storefront = storefronts[rng.below(storefronts.count)]
            let tid = String(2_000_000_100_000 + index)
            let window = Int(28 * day / 1000)
            let secondsBack = Int64(rng.below(window)) * 1000
            let date: Int64 = asOf - 2 * hour - secondsBack
            let delivered = date + 2_000 + Int64(rng.below(20_000))
            var p = Purchase(
                recordID: String(format: "rec-%06d", index), userID: users[rng.below(users.count)],
                productID: product.id,
                transactionID: tid, originalTransactionID: tid, purchaseDate: date,
                quantity: product.type == .consumable && rng.below(10) == 0 ? 2 : 1,
                price: price(product, storefront.currency),
                currency: storefront.currency, storefront: storefront.code,
                status: asOf - date < 36 * hour ? "pending" : "verified", deliveredAt: delivered,
                finishedAt: delivered + 1_000 + Int64(rng.below(4_000)))
            let roll = rng.below(20)
            let format: ReceiptFormat = roll < 10 ? .signedTransaction : roll < 17 ? .appReceipt : .transactionReceipt
            p.receiptID = try addReceipt(p, format: format)
            rows.append(p)
        }

        // Anomalies, each a finding code of SPEC §4 (a few of each).
        var next = 2_000_000_900_000
        func fresh(
            _ product: String = "coins_1000", user: String, daysAgo: Int64 = 3,
            storefront: (code: String, currency: String) = ("USA", "USD")
        ) -> Purchase {
            next += 1
            let tid = String(next)
            let item = catalog.first { $0.id == product }
            let date = asOf - daysAgo * day - Int64(rng.below(3_600)) * 1000
            return Purchase(
                recordID: "rec-x\(next % 1_000_000)", userID: user, productID: product, transactionID: tid,
                originalTransactionID: tid, purchaseDate: date, price: item.map { price($0, storefront.currency) },
                currency: storefront.currency, storefront: storefront.code, deliveredAt: date + 5_000,
                finishedAt: date + 6_000)
        }

        // DUPLICATE_RECORD: the backend booked the same transaction twice.
        for k in 0..<2 {
            let original = rows[k * 7]
            var copy = original
            copy.recordID += "-dup"
            copy.deliveredAt = (original.deliveredAt ?? original.purchaseDate) + 60_000
            copy.finishedAt = copy.deliveredAt.map { $0 + 1_000 }
            rows.append(copy)
            injected.append((.duplicateRecord, original.transactionID))
        }
        // SHARED_TRANSACTION: one receipt replayed by a second account.
        for k in 0..<2 {
            let original = rows[k * 11 + 3]
            var replay = original
            replay.recordID += "-replay"
            replay.userID = "replayer-\(k + 1)"
            replay.deliveredAt = (original.deliveredAt ?? original.purchaseDate) + 3_600_000
            replay.finishedAt = replay.deliveredAt.map { $0 + 1_000 }
            rows.append(replay)
            injected.append((.sharedTransaction, original.transactionID))
        }
        // RESTORE_AS_PURCHASE: a restore of remove_ads booked as a second sale.
        do {
            let original = fresh("remove_ads", user: "user-restore", daysAgo: 20)
            var restore = fresh("remove_ads", user: "user-restore", daysAgo: 2)
            restore.originalTransactionID = original.transactionID
            for p in [original, restore] {
                var row = p
                row.receiptID = try addReceipt(p, format: .signedTransaction)
                rows.append(row)
            }
            injected.append((.restoreAsPurchase, restore.transactionID))
        }
        // UNDELIVERED: Apple says paid; the content was never granted.
        for k in 0..<2 {
            var p = fresh(user: "user-undelivered-\(k + 1)", daysAgo: 2)
            p.deliveredAt = nil
            p.finishedAt = nil
            p.receiptID = try addReceipt(p, format: k == 0 ? .signedTransaction : .appReceipt)
            p.status = k == 0 ? "verified" : "pending"
            rows.append(p)
            injected.append((.undelivered, p.transactionID))
        }
        // DELIVERED_UNVERIFIED: granted although verification errored and never completed.
        do {
            var p = fresh("season_pass", user: "user-unverified", daysAgo: 4)
            p.status = "error"
            rows.append(p)
            injected.append((.deliveredUnverified, p.transactionID))
        }
        // UNFINISHED: delivered, but the client never called finishTransaction.
        for k in 0..<2 {
            var p = fresh("coins_100", user: "user-unfinished-\(k + 1)", daysAgo: 3)
            p.finishedAt = nil
            p.receiptID = try addReceipt(p, format: .transactionReceipt)
            rows.append(p)
            injected.append((.unfinished, p.transactionID))
        }
        // STUCK_PENDING: no receipt, and Apple's Server API keeps failing for it.
        var unreachable: [String] = []
        do {
            var p = fresh("pro_monthly", user: "user-stuck", daysAgo: 3)
            p.status = "pending"
            p.deliveredAt = nil
            p.finishedAt = nil
            rows.append(p)
            // The client never uploaded a receipt, Apple's notification history does not show it,
            // and Get Transaction Info keeps failing for it.
            _ = try addReceipt(
                p, format: .signedTransaction, receiptID: "rc-unused-\(p.transactionID)", registerTransaction: false)
            receiptLines.removeLast()
            unreachable.append(p.transactionID)
            injected.append((.stuckPending, p.transactionID))
        }
        // Pending without a receipt, settled by Get Transaction Info.
        for k in 0..<3 {
            var p = fresh("coins_100", user: "user-server-api-\(k + 1)", daysAgo: 1)
            p.status = "pending"
            rows.append(p)
            _ = try addReceipt(p, format: .signedTransaction, receiptID: "rc-unused-\(p.transactionID)")
            receiptLines.removeLast()
        }
        // SANDBOX_IN_PRODUCTION: TestFlight purchases counted as revenue.
        for k in 0..<2 {
            var p = fresh("pro_monthly", user: "tester-\(k + 1)", daysAgo: 1)
            p.status = "pending"
            p.receiptID = try addReceipt(p, format: .appReceipt, appleEnvironment: "Sandbox", claimed: "Sandbox")
            rows.append(p)
            injected.append((.sandboxInProduction, p.transactionID))
        }
        // PRODUCTION_AS_SANDBOX: a real purchase filed as a test one (revenue missing).
        do {
            var p = fresh("season_pass", user: "user-misfiled", daysAgo: 5)
            p.ledgerEnvironment = "Sandbox"
            p.receiptID = try addReceipt(p, format: .signedTransaction)
            rows.append(p)
            injected.append((.productionAsSandbox, p.transactionID))
        }
        // ENVIRONMENT_CLAIM_MISMATCH: the client claimed Sandbox for a Production receipt.
        do {
            var p = fresh("coins_100", user: "user-claims", daysAgo: 6)
            p.receiptID = try addReceipt(p, format: .signedTransaction, claimed: "Sandbox")
            rows.append(p)
            injected.append((.environmentClaimMismatch, p.transactionID))
        }
        // INVALID_RECEIPT: a receipt that is not one (Apple: 21002).
        do {
            var p = fresh("coins_1000", user: "user-forged", daysAgo: 2)
            p.status = "pending"
            p.deliveredAt = nil
            p.finishedAt = nil
            p.receiptID = "rc-" + p.transactionID
            receiptLines.append(
                "{\"receipt_id\":\"\(p.receiptID ?? "")\",\"user_id\":\"user-forged\",\"format\":\"app-receipt\",\"data\":\"\(Data("this is not a receipt".utf8).base64EncodedString())\"}"
            )
            rows.append(p)
            injected.append((.invalidReceipt, p.transactionID))
        }
        // BUNDLE_MISMATCH: a signed transaction of another app, replayed into ours.
        do {
            var p = fresh("coins_1000", user: "user-other-app", daysAgo: 2)
            p.status = "pending"
            p.deliveredAt = nil
            p.finishedAt = nil
            p.receiptID = try addReceipt(p, format: .signedTransaction, bundleID: "com.example.other")
            rows.append(p)
            injected.append((.bundleMismatch, p.transactionID))
        }
        // PRODUCT_MISMATCH: coins_1000 delivered for a coins_100 purchase.
        do {
            var p = fresh("coins_1000", user: "user-upsold", daysAgo: 3)
            p.receiptID = try addReceipt(p, format: .signedTransaction, appleProductID: "coins_100", applePrice: 990)
            rows.append(p)
            injected.append((.productMismatch, p.transactionID))
        }
        // REFUNDED_DELIVERED: Apple refunded (fully, and 50 % prorated); still counted.
        do {
            var p = fresh("season_pass", user: "user-refunded", daysAgo: 6)
            p.status = "pending"
            p.receiptID = try addReceipt(
                p, format: .appReceipt, revocation: (p.purchaseDate + 2 * day, "REFUND_FULL", nil))
            rows.append(p)
            injected.append((.refundedDelivered, p.transactionID))
            var q = fresh("pro_monthly", user: "user-prorated", daysAgo: 8, storefront: ("JPN", "JPY"))
            q.receiptID = try addReceipt(
                q, format: .signedTransaction, revocation: (q.purchaseDate + 3 * day, "REFUND_PRORATED", 50_000))
            rows.append(q)
            injected.append((.refundedDelivered, q.transactionID))
        }
        // MISSING_RECORD: "I paid and got nothing" — receipts whose purchases the ledger lacks.
        for k in 0..<2 {
            let p = fresh("coins_1000", user: "user-paid-nothing-\(k + 1)", daysAgo: 1, storefront: ("DEU", "EUR"))
            _ = try addReceipt(p, format: .appReceipt)
            injected.append((.missingRecord, p.transactionID))
        }
        // UNKNOWN_PRODUCT: a product the catalog does not know.
        do {
            var p = fresh("coins_100", user: "user-legacy", daysAgo: 7)
            p.productID = "legacy_gems"
            p.price = 1_990
            p.receiptID = try addReceipt(
                p, format: .signedTransaction, appleProductID: "legacy_gems", applePrice: 1_990)
            rows.append(p)
            injected.append((.unknownProduct, p.transactionID))
        }
        // PRICE_MISMATCH: the backend recorded another price than Apple charged.
        do {
            var p = fresh("coins_100", user: "user-discount", daysAgo: 9)
            p.price = 490
            p.receiptID = try addReceipt(p, format: .signedTransaction, applePrice: 990)
            rows.append(p)
            injected.append((.priceMismatch, p.transactionID))
        }

        // Apple's later word, which only the notification-history sweep brings (no receipt says it).
        // A refund of a purchase verified days ago: REFUNDED_DELIVERED, learned from the sweep.
        do {
            var p = fresh("remove_ads", user: "user-refunded-later", daysAgo: 10)
            p.receiptID = try addReceipt(p, format: .signedTransaction)
            seedTransactions[seedTransactions.count - 1].revocationDate = p.purchaseDate + 4 * day
            seedTransactions[seedTransactions.count - 1].revocationReason = 0
            seedTransactions[seedTransactions.count - 1].revocationType = "REFUND_FULL"
            rows.append(p)
            injected.append((.refundedDelivered, p.transactionID))
        }
        // A refund Apple reversed two days later (REFUND, then REFUND_REVERSED): no finding.
        do {
            var p = fresh("remove_ads", user: "user-refund-reversed", daysAgo: 12)
            p.receiptID = try addReceipt(p, format: .signedTransaction)
            seedTransactions[seedTransactions.count - 1].revocationDate = p.purchaseDate + 3 * day
            seedTransactions[seedTransactions.count - 1].revocationReason = 0
            seedTransactions[seedTransactions.count - 1].revocationType = "REFUND_FULL"
            seedTransactions[seedTransactions.count - 1].refundReversedDate = p.purchaseDate + 5 * day
            rows.append(p)
        }
        // A renewal Apple charged (DID_RENEW) that the ledger never booked: MISSING_RECORD.
        do {
            var p = fresh("pro_monthly", user: "user-renewal", daysAgo: 29)
            p.receiptID = try addReceipt(p, format: .signedTransaction)
            rows.append(p)
            next += 1
            let renewal = String(next)
            seedTransactions.append(
                SimulatorTransaction(
                    transactionId: renewal, originalTransactionId: p.transactionID, productId: "pro_monthly",
                    bundleId: bundle, environment: "Production", purchaseDate: p.purchaseDate + 28 * day,
                    originalPurchaseDate: p.purchaseDate, expiresDate: p.purchaseDate + 58 * day,
                    type: "Auto-Renewable Subscription", price: 4_990, currency: "USD", storefront: "USA",
                    orderId: "MK" + renewal))
            injected.append((.missingRecord, renewal))
        }
        // Family Sharing: a family member's access revoked (REVOKE, FAMILY_REVOKE); nobody was refunded.
        do {
            let p = fresh("remove_ads", user: "user-family-member", daysAgo: 14)
            rows.append(p)
            seedTransactions.append(
                SimulatorTransaction(
                    transactionId: p.transactionID, productId: "remove_ads", bundleId: bundle,
                    environment: "Production",
                    purchaseDate: p.purchaseDate, type: "Non-Consumable", price: 2_990, currency: "USD",
                    storefront: "USA", revocationDate: p.purchaseDate + 6 * day, revocationReason: 0,
                    revocationType: "FAMILY_REVOKE", inAppOwnershipType: "FAMILY_SHARED"))
        }
        // SALES_REPORT_MISMATCH: Apple's sales reports cover three quiet days (10 to 12 days back);
        // on one of them Apple sold a purchase the ledger never booked (no receipt reached the
        // backend), and the ledger booked a purchase Apple never sold.
        let salesZone = TimeZone(identifier: salesReportTimeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current
        let lastSalesDay = Timestamp.dayAndSecond(asOf - 10 * day, in: salesZone).day
        let salesReportDays = [lastSalesDay - 2, lastSalesDay - 1, lastSalesDay]
        do {
            let unbooked = fresh("coins_1000", user: "user-sales-unbooked", daysAgo: 11, storefront: ("FRA", "EUR"))
            _ = try addReceipt(unbooked, format: .signedTransaction, receiptID: "rc-unused-\(unbooked.transactionID)")
            receiptLines.removeLast()
            injected.append((.salesReportMismatch, unbooked.transactionID))
            let phantom = fresh("season_pass", user: "user-sales-phantom", daysAgo: 11)
            rows.append(phantom)
            injected.append((.salesReportMismatch, phantom.transactionID))
        }

        // A subscription upgrade (Apple's DID_CHANGE_RENEWAL_PREF/UPGRADE, from the notification
        // history): the yearly subscription starts a new period at once and is a purchase on its
        // day; the monthly one, settled by Get Transaction Info (no receipt), reads `isUpgraded`.
        // Apple refunds its unused part pro rata but states no amount: no finding, no invented refund.
        do {
            var monthly = fresh("pro_monthly", user: "user-upgrade", daysAgo: 8)
            monthly.status = "pending"
            rows.append(monthly)
            _ = try addReceipt(monthly, format: .signedTransaction, receiptID: "rc-unused-\(monthly.transactionID)")
            receiptLines.removeLast()
            var yearly = fresh("pro_yearly", user: "user-upgrade", daysAgo: 2)
            yearly.originalTransactionID = monthly.transactionID
            yearly.receiptID = try addReceipt(yearly, format: .signedTransaction)
            seedTransactions[seedTransactions.count - 1].upgradedFromTransactionId = monthly.transactionID
            rows.append(yearly)
        }

        // The ledger, in a stable order, with a few malformed rows a real export has.
        rows.sort { ($0.purchaseDate, $0.recordID) < ($1.purchaseDate, $1.recordID) }
        var ledger = [
            "record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,environment,price,currency,storefront,verification_status,delivered_at,finished_at,receipt_id"
        ]
        for p in rows {
            let priceText = p.price.map { Money(milliunits: $0, currency: p.currency).formatted } ?? ""
            ledger.append(
                [
                    p.recordID, p.userID, p.productID, p.transactionID, p.originalTransactionID,
                    Timestamp.iso(p.purchaseDate),
                    String(p.quantity), p.ledgerEnvironment, priceText, p.price == nil ? "" : p.currency, p.storefront,
                    p.status,
                    p.deliveredAt.map(Timestamp.iso) ?? "", p.finishedAt.map(Timestamp.iso) ?? "", p.receiptID ?? "",
                ].joined(separator: ","))
        }
        ledger.append("rec-bad-1,user-00001,coins_100,2000000999001,,yesterday,1,Production,0.99,USD,USA,verified,,,")
        ledger.append(
            "rec-bad-2,user-00002,coins_100,2000000999002,,2026-11-19T10:00:00Z,1,Production,0.99,XBT,USA,verified,,,")
        ledger.append("rec-bad-3,user-00003,coins_100,2000000999003,,2026-11-19T10:00:00Z,1,Production,0.99,USD,USA")

        var productLines = ["product_id,type,price,currency,storefront,proceeds_rate"]
        for product in catalog {
            for (storefront, currency) in storefronts {
                productLines.append(
                    "\(product.id),\(product.type.rawValue),\(Money(milliunits: price(product, currency), currency: currency).formatted),\(currency),\(storefront),\(product.proceeds)"
                )
            }
        }

        let seed = SimulatorSeed(
            bundleId: bundle, appAppleId: 1_234_567_890, sharedSecret: sharedSecret, historyPageSize: 20, apiKey: nil,
            transactions: seedTransactions, receipts: seedReceipts)
        return DemoDataset(
            bundleID: bundle, asOf: asOf, products: productLines.joined(separator: "\n") + "\n",
            transactions: ledger.joined(separator: "\n") + "\n", receipts: receiptLines.joined(separator: "\n") + "\n",
            seed: seed, unreachableTransactionIDs: unreachable, injected: injected, salesReportDays: salesReportDays)
    }
}

extension DemoDataset {
    /// Writes Apple's Summary Sales Report of every ``salesReportDays`` day into `directory`,
    /// gzip-compressed under Apple's file names, as the simulator renders them from its seed.
    ///
    /// - Returns: the files' paths, by day.
    public func writeSalesReports(into directory: String) throws -> [String] {
        let zone = TimeZone(identifier: Self.salesReportTimeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current
        return try salesReportDays.map { day in
            let path = directory + "/" + SimulatedSalesReport.fileName(day: day)
            let text = SimulatedSalesReport.summary(for: seed, day: day, timeZone: zone)
            try SimulatedSalesReport.writeGzip(text, to: path)
            return path
        }
    }
}
