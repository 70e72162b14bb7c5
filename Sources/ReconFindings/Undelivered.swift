import AppleData
import ReconModel
import ReconStorage

/// `UNDELIVERED`: Apple says paid and valid, and nothing was delivered after the grace period.
///
/// Rule, per transaction id: no row of the transaction has `delivered_at` (one delivery is enough,
/// whoever got it), and some row is a real Production purchase that Apple confirmed — the row is
/// `verified`, or Apple's verifyReceipt (status 0), the Server API or a verified StoreKit 2 JWS
/// confirms the transaction — and Apple has not refunded or revoked it, and its purchase date is
/// more than the delivery grace before "now". One finding per transaction; the amount is the value
/// of one purchase.
public struct Undelivered: TransactionDetector {
    public let code = FindingCode.undelivered

    /// The detector.
    public init() {}

    public func inspect(_ facts: TransactionFacts, into findings: inout FindingCollector) {
        let group = facts.group

        let rows = facts.owedRows
        guard let first = rows.first else { return }
        let value = facts.value(of: first)
        findings.report(
            Finding(
                code, transactionID: group.transactionID, originalTransactionID: first.originalTransactionID,
                userIDs: rows.map(\.userID), productID: first.productID, environment: .production, amount: value,
                message: .undelivered(first, facts: facts, value: value),
                recordIDs: rows.map(\.recordID), receiptID: first.receiptID))
    }
}

fileprivate extension Finding.Message {
    static func undelivered(_ row: LedgerTransaction, facts: TransactionFacts, value: Money?) -> Self {
        let why = row.verificationStatus == .verified ? "verified" : "confirmed by Apple"
        let worth = value.map { " worth \($0.text)" } ?? ""
        return Self(
            "Transaction \(row.transactionID) (\(row.productID)\(worth)) for user \(row.userID) is paid and "
                + "\(why) but was never delivered; purchased \(FindingText.timestamp(row.purchaseDate)), ",
            ageFrom: row.purchaseDate, to: facts.context.asOf, " ago")
    }
}
