import ReconFindings
import ReconModel
import ReconStorage

/// A subscription's story in the support timeline: each period Apple signed, Apple's status answer, and the backend's
/// entitlement.
extension Lookup {
    package struct SubscriptionEvent {
        package var time: Int64
        package var order: Int
        package var kind: String
        package var text: String
        package var transactionID: String?
        package var userID: String?
    }

    /// The periods Apple signed (each transaction with an `expiresDate`, once), Apple's status answers, and the
    /// backend's entitlements, as timeline events.
    package static func subscriptionEvents(
        evidence: [EvidenceRecord], entitlements: [Entitlement], statuses: [SubscriptionStatus],
        context: DetectionContext
    ) -> [SubscriptionEvent] {
        var events: [SubscriptionEvent] = []
        var seen = Set<String>()
        for e in evidence where e.isUsable(in: context) && e.isAuthentic {
            let entry = e.entry
            guard let expires = entry.expiresDate, seen.insert(entry.transactionID).inserted else { continue }
            let start = entry.purchaseDate ?? e.recordedAt
            let renewal = entry.originalTransactionID.map { $0 != entry.transactionID } ?? false
            let product = entry.productID.map { " (\($0))" } ?? ""
            let price = entry.price.map { ", \($0.formatted) \($0.currency)" } ?? ""
            let environment = entry.environment ?? e.environment
            let test = environment.map { !$0.isProduction } ?? false
            let envText = environment.map { ", \($0.rawValue)" } ?? ""
            let what = test ? "test period (no charge)" : renewal ? "renewal" : "first period"
            events.append(
                SubscriptionEvent(
                    time: start, order: 5, kind: renewal ? "renewal" : "subscribed",
                    text: "Apple signed transaction \(entry.transactionID)\(product): \(what) until "
                        + "\(Timestamp.iso(expires))\(price)\(envText) — \(FindingText.describe(e))",
                    transactionID: entry.transactionID))
        }
        for status in statuses {
            var text =
                "Apple's subscription status for \(status.originalTransactionID): \(status.status.name)"
            if let expires = status.expiresDate { text += ", period until \(Timestamp.iso(expires))" }
            if let grace = status.gracePeriodExpiresDate { text += ", grace period until \(Timestamp.iso(grace))" }
            if let renew = status.autoRenew { text += ", auto-renew \(renew ? "on" : "off")" }
            text += " (\(status.environment.rawValue))"
            events.append(
                SubscriptionEvent(
                    time: status.learnedAt, order: 5, kind: "status", text: text,
                    transactionID: status.originalTransactionID))
        }
        for e in entitlements {
            let updated = e.updatedAt.map { " (updated \(Timestamp.iso($0)))" } ?? ""
            events.append(
                SubscriptionEvent(
                    time: e.expiresAt, order: 7, kind: "entitlement",
                    text: "the backend's access for \(e.userID) to \(e.productID) (subscription "
                        + "\(e.originalTransactionID), \(e.environment.rawValue)) ends\(updated)",
                    transactionID: e.originalTransactionID, userID: e.userID))
        }
        return events
    }

    /// Whether the evidence or the ledger puts the purchase in a test environment (Sandbox, Xcode, LocalTesting):
    /// nobody was charged.
    package static func isTestPurchase(_ facts: TransactionFacts, _ group: TransactionGroup) -> Bool {
        if let row = group.records.first { return !facts.isRealPurchase(row) }
        if case .test = facts.environment { return true }
        return false
    }
}

extension LookupReport {
    /// What a subscription notification means for access, in Apple's words
    /// (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype and `subtype`).
    package static func subscriptionMeaning(_ n: StoredNotification) -> String {
        switch (n.type, n.subtype) {
        case ("SUBSCRIBED", "INITIAL_BUY"): return "; the customer subscribed for the first time"
        case ("SUBSCRIBED", "RESUBSCRIBE"): return "; the customer subscribed again"
        case ("DID_RENEW", "BILLING_RECOVERY"): return "; renewed after a billing failure: access continues"
        case ("DID_RENEW", _): return "; the subscription renewed: access continues"
        case ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED"): return "; auto-renew turned on"
        case ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED"):
            return "; auto-renew turned off: access ends at the end of the period"
        case ("DID_FAIL_TO_RENEW", "GRACE_PERIOD"):
            return "; billing failed, in the billing grace period: keep access until it ends"
        case ("DID_FAIL_TO_RENEW", _): return "; billing failed, Apple retries: no charge yet"
        case ("GRACE_PERIOD_EXPIRED", _): return "; the billing grace period ended without payment"
        case ("EXPIRED", "VOLUNTARY"): return "; expired after the customer turned auto-renew off"
        case ("EXPIRED", "BILLING_RETRY"): return "; expired: billing retry ended without payment"
        case ("EXPIRED", "PRICE_INCREASE"): return "; expired: the customer did not accept a price increase"
        case ("EXPIRED", _): return "; the subscription expired"
        case ("REFUND", _): return "; Apple refunded the transaction"
        case ("REFUND_REVERSED", _): return "; Apple reversed an earlier refund: the purchase stands again"
        case ("REVOKE", _): return "; Family Sharing access revoked"
        default: return ""
        }
    }
}
