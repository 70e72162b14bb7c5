import AppStoreSimulator
import Foundation
import IAPRecon

extension DemoDataset.Builder {
    /// One case of the subscriptions: a `pro_monthly` subscription and the backend's entitlement for it.
    struct SubscriptionCase {
        var user: String
        /// When the first period was bought, in days before the as-of.
        var daysAgo: Int64
        /// The backend's `expires_at` less the first period's `expiresDate` (ms).
        var backendShift: Int64 = 0
        /// Whether Apple renewed once when the first period ended (the ledger never booked it).
        var renewedUnbooked = false
        /// Days after the purchase the customer turned auto-renew off.
        var autoRenewOffAfter: Int64?
        /// Days of billing grace period after the first period ended unrenewed.
        var graceDays: Int64?
        /// Days Apple retries billing after the first period ended unrenewed.
        var retryDays: Int64?
        /// The finding the case raises, if any.
        var finding: FindingCode?
    }

    /// The subscription cases: auto-renewable subscriptions the simulator's status route answers for as of the
    /// as-of, and the backend's entitlement of each (`entitlements.csv`).
    ///
    /// Apple's periods are the seed's 30-day `pro_monthly` transactions; the first of each is in the ledger with its
    /// receipt. Findings: a renewal the backend never heard of (`PAID_NOT_ENTITLED`, and `MISSING_RECORD` for the
    /// unbooked renewal), a billing grace period the backend cut off at the period's end (`PAID_NOT_ENTITLED`),
    /// access after Apple's expiry (`ENTITLED_NOT_PAID`), both active with expiries three days apart
    /// (`ENTITLEMENT_EXPIRY_MISMATCH`). No finding: billing retry without a grace period (access ends with the
    /// period), both expired, both active three hours apart.
    func addSubscriptions() throws {
        let cases: [SubscriptionCase] = [
            SubscriptionCase(
                user: "user-sub-renewal-missed", daysAgo: 37, renewedUnbooked: true, finding: .paidNotEntitled),
            SubscriptionCase(
                user: "user-sub-grace-cut", daysAgo: 32, graceDays: 16, retryDays: 60, finding: .paidNotEntitled),
            SubscriptionCase(
                user: "user-sub-expired-entitled", daysAgo: 45, backendShift: 30 * day, autoRenewOffAfter: 10,
                finding: .entitledNotPaid),
            SubscriptionCase(
                user: "user-sub-expiry-apart", daysAgo: 8, backendShift: 3 * day, finding: .entitlementExpiryMismatch),
            SubscriptionCase(user: "user-sub-billing-retry", daysAgo: 33, retryDays: 60),
            SubscriptionCase(user: "user-sub-both-expired", daysAgo: 50, autoRenewOffAfter: 5),
            SubscriptionCase(user: "user-sub-clean", daysAgo: 5, backendShift: 3 * hour),
        ]
        var lines = ["user_id,original_transaction_id,product_id,expires_at,environment,updated_at"]
        for item in cases {
            var p = fresh("pro_monthly", user: item.user, daysAgo: item.daysAgo)
            p.receiptID = try addReceipt(p, format: .signedTransaction)
            rows.append(p)
            let ends = p.purchaseDate + 30 * day
            if item.renewedUnbooked {
                next += 1
                let renewal = String(next)
                seedTransactions.append(
                    SimulatorTransaction(
                        transactionId: renewal, originalTransactionId: p.transactionID, productId: "pro_monthly",
                        bundleId: bundle, environment: "Production", purchaseDate: ends,
                        originalPurchaseDate: p.purchaseDate, expiresDate: ends + 30 * day,
                        type: "Auto-Renewable Subscription", price: 4_990, currency: "USD", storefront: "USA",
                        orderId: "MK" + renewal))
                injected.append((.missingRecord, renewal))
            }
            if item.autoRenewOffAfter != nil || item.graceDays != nil || item.retryDays != nil {
                subscriptions.append(
                    SimulatorSubscription(
                        originalTransactionId: p.transactionID,
                        autoRenewOffDate: item.autoRenewOffAfter.map { p.purchaseDate + $0 * day },
                        gracePeriodExpiresDate: item.graceDays.map { ends + $0 * day },
                        billingRetryEndDate: item.retryDays.map { ends + $0 * day }))
            }
            if let finding = item.finding { injected.append((finding, p.transactionID)) }
            let expires = ends + item.backendShift
            lines.append(
                "\(item.user),\(p.transactionID),pro_monthly,\(Timestamp.iso(expires)),Production,"
                    + Timestamp.iso(min(asOf, ends) - hour))
        }
        entitlementLines = lines
    }
}
