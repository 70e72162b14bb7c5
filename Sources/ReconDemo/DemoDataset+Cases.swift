import AppStoreSimulator
import Foundation
import IAPRecon

extension DemoDataset.Builder {
    /// DUPLICATE_RECORD: the backend booked the same transaction twice.
    func addDuplicateRecords() {
        for k in 0..<2 {
            let original = rows[k * 7]
            var copy = original
            copy.recordID += "-dup"
            copy.deliveredAt = (original.deliveredAt ?? original.purchaseDate) + 60_000
            copy.finishedAt = copy.deliveredAt.map { $0 + 1_000 }
            rows.append(copy)
            injected.append((.duplicateRecord, original.transactionID))
        }
    }

    /// SHARED_TRANSACTION: one receipt replayed by a second account.
    func addSharedTransactions() {
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
    }

    /// RESTORE_AS_PURCHASE: a restore of remove_ads booked as a second sale.
    func addRestoreAsPurchase() throws {
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

    /// UNDELIVERED: Apple says paid; the content was never granted.
    func addUndelivered() throws {
        for k in 0..<2 {
            var p = fresh(user: "user-undelivered-\(k + 1)", daysAgo: 2)
            p.deliveredAt = nil
            p.finishedAt = nil
            p.receiptID = try addReceipt(p, format: k == 0 ? .signedTransaction : .appReceipt)
            p.status = k == 0 ? "verified" : "pending"
            rows.append(p)
            injected.append((.undelivered, p.transactionID))
        }
    }

    /// DELIVERED_UNVERIFIED: granted although verification errored and never completed.
    func addDeliveredUnverified() {
        var p = fresh("season_pass", user: "user-unverified", daysAgo: 4)
        p.status = "error"
        rows.append(p)
        injected.append((.deliveredUnverified, p.transactionID))
    }

    /// UNFINISHED: delivered, but the client never called finishTransaction.
    func addUnfinished() throws {
        for k in 0..<2 {
            var p = fresh("coins_100", user: "user-unfinished-\(k + 1)", daysAgo: 3)
            p.finishedAt = nil
            p.receiptID = try addReceipt(p, format: .transactionReceipt)
            rows.append(p)
            injected.append((.unfinished, p.transactionID))
        }
    }

    /// STUCK_PENDING: no receipt, and Apple's Server API keeps failing for it.
    func addStuckPending() throws {
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

    /// Pending without a receipt, settled by Get Transaction Info.
    func addSettledByServerAPI() throws {
        for k in 0..<3 {
            var p = fresh("coins_100", user: "user-server-api-\(k + 1)", daysAgo: 1)
            p.status = "pending"
            rows.append(p)
            _ = try addReceipt(p, format: .signedTransaction, receiptID: "rc-unused-\(p.transactionID)")
            receiptLines.removeLast()
        }
    }

    /// SANDBOX_IN_PRODUCTION: TestFlight purchases counted as revenue.
    func addSandboxInProduction() throws {
        for k in 0..<2 {
            var p = fresh("pro_monthly", user: "tester-\(k + 1)", daysAgo: 1)
            p.status = "pending"
            p.receiptID = try addReceipt(p, format: .appReceipt, appleEnvironment: "Sandbox", claimed: "Sandbox")
            rows.append(p)
            injected.append((.sandboxInProduction, p.transactionID))
        }
    }

    /// PRODUCTION_AS_SANDBOX: a real purchase filed as a test one (revenue missing).
    func addProductionAsSandbox() throws {
        var p = fresh("season_pass", user: "user-misfiled", daysAgo: 5)
        p.ledgerEnvironment = "Sandbox"
        p.receiptID = try addReceipt(p, format: .signedTransaction)
        rows.append(p)
        injected.append((.productionAsSandbox, p.transactionID))
    }

    /// ENVIRONMENT_CLAIM_MISMATCH: the client claimed Sandbox for a Production receipt.
    func addEnvironmentClaimMismatch() throws {
        var p = fresh("coins_100", user: "user-claims", daysAgo: 6)
        p.receiptID = try addReceipt(p, format: .signedTransaction, claimed: "Sandbox")
        rows.append(p)
        injected.append((.environmentClaimMismatch, p.transactionID))
    }

    /// INVALID_RECEIPT: a receipt that is not one (Apple: 21002).
    func addInvalidReceipt() {
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

    /// BUNDLE_MISMATCH: a signed transaction of another app, replayed into ours.
    func addBundleMismatch() throws {
        var p = fresh("coins_1000", user: "user-other-app", daysAgo: 2)
        p.status = "pending"
        p.deliveredAt = nil
        p.finishedAt = nil
        p.receiptID = try addReceipt(p, format: .signedTransaction, bundleID: "com.example.other")
        rows.append(p)
        injected.append((.bundleMismatch, p.transactionID))
    }

    /// PRODUCT_MISMATCH: coins_1000 delivered for a coins_100 purchase.
    func addProductMismatch() throws {
        var p = fresh("coins_1000", user: "user-upsold", daysAgo: 3)
        p.receiptID = try addReceipt(p, format: .signedTransaction, appleProductID: "coins_100", applePrice: 990)
        rows.append(p)
        injected.append((.productMismatch, p.transactionID))
    }

    /// REFUNDED_DELIVERED: Apple refunded (fully, and 50 % prorated); still counted.
    func addRefundedDelivered() throws {
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

    /// MISSING_RECORD: "I paid and got nothing" — receipts whose purchases the ledger lacks.
    func addMissingRecords() throws {
        for k in 0..<2 {
            let p = fresh("coins_1000", user: "user-paid-nothing-\(k + 1)", daysAgo: 1, storefront: ("DEU", "EUR"))
            _ = try addReceipt(p, format: .appReceipt)
            injected.append((.missingRecord, p.transactionID))
        }
    }

    /// UNKNOWN_PRODUCT: a product the catalog does not know.
    func addUnknownProduct() throws {
        var p = fresh("coins_100", user: "user-legacy", daysAgo: 7)
        p.productID = "legacy_gems"
        p.price = 1_990
        p.receiptID = try addReceipt(
            p, format: .signedTransaction, appleProductID: "legacy_gems", applePrice: 1_990)
        rows.append(p)
        injected.append((.unknownProduct, p.transactionID))
    }

    /// PRICE_MISMATCH: the backend recorded another price than Apple charged.
    func addPriceMismatch() throws {
        var p = fresh("coins_100", user: "user-discount", daysAgo: 9)
        p.price = 490
        p.receiptID = try addReceipt(p, format: .signedTransaction, applePrice: 990)
        rows.append(p)
        injected.append((.priceMismatch, p.transactionID))
    }

    /// A refund of a purchase verified days ago: REFUNDED_DELIVERED, learned from the sweep.
    func addRefundLearnedLater() throws {
        var p = fresh("remove_ads", user: "user-refunded-later", daysAgo: 10)
        p.receiptID = try addReceipt(p, format: .signedTransaction)
        seedTransactions[seedTransactions.count - 1].revocationDate = p.purchaseDate + 4 * day
        seedTransactions[seedTransactions.count - 1].revocationReason = 0
        seedTransactions[seedTransactions.count - 1].revocationType = "REFUND_FULL"
        rows.append(p)
        injected.append((.refundedDelivered, p.transactionID))
    }

    /// A refund Apple reversed two days later (REFUND, then REFUND_REVERSED): no finding.
    func addRefundReversed() throws {
        var p = fresh("remove_ads", user: "user-refund-reversed", daysAgo: 12)
        p.receiptID = try addReceipt(p, format: .signedTransaction)
        seedTransactions[seedTransactions.count - 1].revocationDate = p.purchaseDate + 3 * day
        seedTransactions[seedTransactions.count - 1].revocationReason = 0
        seedTransactions[seedTransactions.count - 1].revocationType = "REFUND_FULL"
        seedTransactions[seedTransactions.count - 1].refundReversedDate = p.purchaseDate + 5 * day
        rows.append(p)
    }

    /// A renewal Apple charged (DID_RENEW) that the ledger never booked: MISSING_RECORD.
    func addUnbookedRenewal() throws {
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

    /// Family Sharing: a family member's access revoked (REVOKE, FAMILY_REVOKE); nobody was refunded.
    func addFamilyRevoke() {
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

    /// SALES_REPORT_MISMATCH: Apple's sales reports cover three quiet days (10 to 12 days back);
    /// on one of them Apple sold a purchase the ledger never booked (no receipt reached the
    /// backend), and the ledger booked a purchase Apple never sold.
    func addSalesReportMismatches() throws {
        let salesZone = TimeZone(identifier: DemoDataset.salesReportTimeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current
        let lastSalesDay = Timestamp.dayAndSecond(asOf - 10 * day, in: salesZone).day
        salesReportDays = [lastSalesDay - 2, lastSalesDay - 1, lastSalesDay]
        let unbooked = fresh("coins_1000", user: "user-sales-unbooked", daysAgo: 11, storefront: ("FRA", "EUR"))
        _ = try addReceipt(unbooked, format: .signedTransaction, receiptID: "rc-unused-\(unbooked.transactionID)")
        receiptLines.removeLast()
        injected.append((.salesReportMismatch, unbooked.transactionID))
        let phantom = fresh("season_pass", user: "user-sales-phantom", daysAgo: 11)
        rows.append(phantom)
        injected.append((.salesReportMismatch, phantom.transactionID))
    }

    /// A subscription upgrade (Apple's DID_CHANGE_RENEWAL_PREF/UPGRADE, from the notification history).
    ///
    /// The yearly subscription starts a new period at once and is a purchase on its
    /// day; the monthly one, settled by Get Transaction Info (no receipt), reads `isUpgraded`.
    /// Apple refunds its unused part pro rata but states no amount: no finding, no invented refund.
    func addUpgrade() throws {
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
}

extension DemoDataset.Builder {
    /// The developer's other app: Apple's Financial Reports and payments cover it too.
    static let otherApp = "com.example.recon.stickers"

    /// FINANCIAL_REPORT_MISMATCH and PAYMENT_MISMATCH: Apple's Financial Reports and payment summary
    /// cover the last fiscal month that ended before the as-of.
    ///
    /// In that month the ledger booked a sale Apple never made (a yearly subscription in Germany,
    /// which only upgrades sell otherwise: no receipt, no trace at Apple), and Apple paid the United
    /// Kingdom for the developer's other app, whose region finance did not download (it fetched this
    /// app's regions only): a region paid with no Financial Report in the store.
    func addMonthCloseMismatches() {
        let zone = TimeZone(identifier: DemoDataset.salesReportTimeZone) ?? TimeZone(secondsFromGMT: 0) ?? .current
        let today = Timestamp.dayAndSecond(asOf, in: zone).day
        guard let period = AppleFiscalCalendar.lastPeriod(endedBefore: today) else { return }
        financialPeriod = period
        let phantom = fresh(
            "pro_yearly", user: "user-close-phantom", daysAgo: Int64(today - (period.end - 2)),
            storefront: ("DEU", "EUR"))
        rows.append(phantom)
        injected.append((.financialReportMismatch, phantom.transactionID))
        for k in 0..<3 {
            next += 1
            // 20:00 UTC is midday in Pacific time: a week apart, inside the fiscal month.
            let date = Int64(period.start + 3 + 7 * k) * day + 20 * hour
            otherAppSales.append(
                SimulatorTransaction(
                    transactionId: String(next), productId: "sticker_pack", bundleId: Self.otherApp,
                    environment: "Production", purchaseDate: date, quantity: k == 1 ? 2 : 1, type: "Consumable",
                    price: k == 1 ? 1_580 : 790, currency: "GBP", storefront: "GBR", orderId: "MK" + String(next)))
        }
        undownloadedReportRegions = ["GB"]
        injected.append((.paymentMismatch, "GBP"))
    }
}
