import AppStoreSimulator
import AppStoreTestSigning
import Foundation
import IAPRecon

extension DemoDataset {
    /// The dataset as it grows.
    ///
    /// It holds the ledger rows, the uploaded receipts and Apple's truth (the simulator seed), with what was injected
    /// on purpose. Each demo case adds itself through one method; the order of the calls fixes the random draws, so a
    /// seed gives the same files.
    final class Builder {
        let bundle = "com.example.recon.demo"
        let asOf: Int64
        let authority: SigningAuthority
        var rng: SplitMix64
        var rows: [Purchase] = []
        var receiptLines: [String] = []
        var seedTransactions: [SimulatorTransaction] = []
        var seedReceipts: [SimulatorReceipt] = []
        /// How the seed's subscriptions renew (auto-renew off, grace period, billing retry).
        var subscriptions: [SimulatorSubscription] = []
        /// The backend's entitlements file, header first.
        var entitlementLines: [String] = []
        /// The backend's consents file (who agreed to share consumption information), header first.
        var consentLines: [String] = []
        /// Notifications the backend's webhook stored (`notifications.jsonl`), one a line.
        var notificationLines: [String] = []
        var injected: [(FindingCode, String)] = []
        /// Transactions whose Server API calls fail.
        var unreachable: [String] = []
        /// The days Apple's sales reports cover.
        var salesReportDays: [Int] = []
        /// The fiscal month of Apple's Financial Reports and payment summary.
        var financialPeriod: FiscalPeriod?
        /// Sales of the developer's other app (Financial Reports only).
        var otherAppSales: [SimulatorTransaction] = []
        /// Regions whose Financial Report is not handed over.
        var undownloadedReportRegions: [String] = []
        /// The last transaction id handed to an anomaly.
        var next = 2_000_000_900_000
        let hour: Int64 = 3_600_000
        var day: Int64 { 24 * hour }

        init(seed: UInt64, asOf: Int64) throws {
            rng = SplitMix64(seed: seed)
            self.asOf = asOf
            authority = try SigningAuthority(options: AppStoreSimulator.defaultAuthorityOptions)
        }
    }
}

extension DemoDataset.Builder {
    typealias Product = DemoDataset.Product
    typealias Purchase = DemoDataset.Purchase

    /// The price of `product` in `currency`, in milliunits (0 when it has none).
    func price(_ product: Product, _ currency: String) -> Int64 { product.prices[currency] ?? 0 }

    /// Makes the receipt of `p` in `format`, registers Apple's truth, returns the receipt id.
    func addReceipt(
        _ p: Purchase, format: ReceiptFormat, appleEnvironment: String = "Production",
        appleProductID: String? = nil,
        applePrice: Int64? = nil, bundleID: String? = nil, revocation: (Int64, String, Int32?)? = nil,
        claimed: String? = "Production", uploader: String? = nil, receiptID: String? = nil,
        registerTransaction: Bool = true
    ) throws -> String {
        let product = DemoDataset.catalog.first { $0.id == (appleProductID ?? p.productID) }
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

    /// Clean purchases: delivered and finished within seconds; the last 36 hours still pending.
    func addCleanPurchases(_ count: Int) throws {
        var users: [String] = (1...max(10, count / 3)).map { String(format: "user-%05d", $0) }
        users.shuffle(using: &rng)
        for index in 0..<count {
            let product = DemoDataset.everydayCatalog[rng.below(DemoDataset.everydayCatalog.count)]
            let storefront = DemoDataset.storefronts[rng.below(DemoDataset.storefronts.count)]
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
    }

    /// A purchase for an anomaly: a fresh transaction id, `daysAgo` days before the as-of time.
    func fresh(
        _ product: String = "coins_1000", user: String, daysAgo: Int64 = 3,
        storefront: (code: String, currency: String) = ("USA", "USD")
    ) -> Purchase {
        next += 1
        let tid = String(next)
        let item = DemoDataset.catalog.first { $0.id == product }
        let date = asOf - daysAgo * day - Int64(rng.below(3_600)) * 1000
        return Purchase(
            recordID: "rec-x\(next % 1_000_000)", userID: user, productID: product, transactionID: tid,
            originalTransactionID: tid, purchaseDate: date, price: item.map { price($0, storefront.currency) },
            currency: storefront.currency, storefront: storefront.code, deliveredAt: date + 5_000,
            finishedAt: date + 6_000)
    }

    /// The ledger CSV, in a stable order, with a few malformed rows a real export has.
    func ledgerCSV() -> String {
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
        return ledger.joined(separator: "\n") + "\n"
    }

    /// The product catalog CSV, one row per product and storefront.
    func productsCSV() -> String {
        var productLines = ["product_id,type,price,currency,storefront,proceeds_rate,duration"]
        for product in DemoDataset.catalog {
            for (storefront, currency) in DemoDataset.storefronts {
                productLines.append(
                    "\(product.id),\(product.type.rawValue),\(Money(milliunits: price(product, currency), currency: currency).formatted),\(currency),\(storefront),\(product.proceeds),"
                        + product.duration
                )
            }
        }
        return productLines.joined(separator: "\n") + "\n"
    }

    /// The App Store simulator's seed: Apple's truth about every transaction and receipt.
    ///
    /// Its subscription statuses are those of the as-of, whenever the demo runs.
    func simulatorSeed() -> SimulatorSeed {
        SimulatorSeed(
            bundleId: bundle, appAppleId: 1_234_567_890, sharedSecret: DemoDataset.sharedSecret, historyPageSize: 20,
            apiKey: nil, transactions: seedTransactions, receipts: seedReceipts, subscriptions: subscriptions,
            subscriptionStatusesAsOf: asOf)
    }
}
