import AppleData
import ReconModel
import ReconStorage

/// `REFUNDED_DELIVERED`: Apple refunded or revoked a purchase the ledger still counts as revenue.
///
/// Rule, per transaction id: Apple's authentic evidence (verifyReceipt status 0, Server API,
/// verified signature) shows a cancellation date or a `REFUND_FULL`/`REFUND_PRORATED` revocation,
/// Apple's latest signed statement (by `signedDate`) has not reversed it (a signed transaction
/// without `revocationDate`), and some row
/// stands as revenue (Production, not `invalid`, not a test purchase by the evidence).
/// `FAMILY_REVOKE` returns no money and is not a refund, and neither is a subscription the customer
/// upgraded (JWS `isUpgraded`): Apple's `DID_CHANGE_RENEWAL_PREF` / `UPGRADE` gives a prorated
/// refund of the unused period with the upgrade, and the ledger rightly keeps the sale
/// (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
/// One finding per transaction (a duplicate
/// row's extra revenue is `DUPLICATE_RECORD`'s); the amount is the refunded part of one purchase's
/// value: all of it, or value × revocationPercentage / 100 000 rounded to the currency's smallest
/// unit (empty when the share is unknown).
public struct RefundedDelivered: TransactionDetector {
    public let code = FindingCode.refundedDelivered

    /// The detector.
    public init() {}

    public func inspect(_ facts: TransactionFacts, into findings: inout FindingCollector) {
        let group = facts.group

        guard case .refunded(let refund, let evidence) = facts.refund else { return }
        let rows = facts.booked.filter(facts.standsAsRevenue)
        guard let first = rows.first else { return }
        let value = facts.value(of: first)
        let refunded = value.flatMap { facts.refund.refundedAmount(of: $0) }
        findings.report(
            Finding(
                code, transactionID: group.transactionID, originalTransactionID: first.originalTransactionID,
                userIDs: rows.map(\.userID), productID: first.productID, environment: .production, amount: refunded,
                message: .refunded(
                    first, rows: rows, refund: refund, evidence: evidence, value: value, refunded: refunded),
                recordIDs: rows.map(\.recordID), receiptID: first.receiptID))
    }
}

fileprivate extension Finding.Message {
    static func refunded(
        _ first: LedgerTransaction, rows: [LedgerTransaction], refund: RefundState.Refund, evidence: EvidenceRecord,
        value: Money?, refunded: Money?
    ) -> Self {
        let how: String
        switch refund {
        case .full: how = "refunded"
        case .prorated(let share?): how = "refunded \(FindingText.percentage(share)) of"
        case .prorated(nil): how = "partly refunded (share not stated)"
        }
        let when = evidence.entry.cancellationDate.map { " on \(FindingText.timestamp($0))" } ?? ""
        let worth = value.map { " worth \($0.text)" } ?? ""
        let reverse = refunded.map { "; \($0.text) to reverse" } ?? ""
        return Self(
            "Apple \(how) transaction \(first.transactionID) (\(first.productID)\(worth))\(when), "
                + "but \(FindingText.records(rows)) still count\(rows.count == 1 ? "s" : "") it as revenue\(reverse)"
        )
    }
}
