import AppleData
import ReconModel
import ReconStorage

/// `RESTORE_AS_PURCHASE`: a restore of a non-consumable booked as new revenue.
///
/// Rule, per original transaction id, for rows of non-consumable products (by the catalog):
/// a row is *booked* when the ledger counts it as revenue (Production, not `invalid`) and it does
/// not record an explicit zero price. The purchase itself is the booked row whose transaction id
/// is the original id, else the earliest booked row. Every other booked transaction id is a
/// restore booked as revenue, one finding each, whoever it was credited to (a restore credited to
/// another user is also a `SHARED_TRANSACTION`).
///
/// Fine: a restore when the purchase is not booked (bought before the ledger began, booked as
/// Sandbox or `invalid`), a restore recorded at price 0, renewals of subscriptions.
public struct RestoreAsPurchase: OriginalTransactionDetector {
    public let code = FindingCode.restoreAsPurchase

    /// The detector.
    public init() {}

    public func inspect(
        _ group: OriginalTransactionGroup, in context: DetectionContext, into findings: inout FindingCollector
    ) {
        let booked = group.records.filter {
            $0.ledgerCountsAsRevenue && $0.price?.milliunits != 0
                && context.product($0.productID, storefront: $0.storefront)?.type == .nonConsumable
        }
        let purchases = LedgerTransaction.firstRowPerTransaction(booked)
        guard
            let purchase = purchases.first(where: { $0.transactionID == group.originalTransactionID })
                ?? purchases.first
        else { return }
        for restore in purchases where restore.transactionID != purchase.transactionID {
            let value = context.value(of: restore, applePrice: nil)
            let rows = booked.filter { $0.transactionID == restore.transactionID }
            findings.report(
                Finding(
                    code, transactionID: restore.transactionID, originalTransactionID: group.originalTransactionID,
                    userIDs: [restore.userID, purchase.userID], productID: restore.productID,
                    environment: restore.environment, amount: value,
                    message: .restore(restore, purchase: purchase, value: value),
                    recordIDs: rows.map(\.recordID), receiptID: restore.receiptID))
        }
    }
}

fileprivate extension Finding.Message {
    static func restore(_ restore: LedgerTransaction, purchase: LedgerTransaction, value: Money?) -> Self {
        let worth = value.map(\.text) ?? "an unknown amount"
        let whose = restore.userID == purchase.userID ? "" : " to user \(purchase.userID)"
        return Self(
            "Transaction \(restore.transactionID) (record \(restore.recordID), user \(restore.userID)) "
                + "restores \(restore.productID), already booked\(whose) as transaction \(purchase.transactionID) "
                + "(record \(purchase.recordID)), but is booked as new revenue worth \(worth)")
    }
}
