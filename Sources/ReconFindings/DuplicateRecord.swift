import AppleData
import ReconModel
import ReconStorage

/// `DUPLICATE_RECORD`: one Apple transaction id recorded (credited) more than once.
///
/// Rule: at least two rows of the transaction are credited (not `invalid`, a real Production
/// purchase). The first row in booking order is the legitimate one; the amount is the value of
/// every other row, the extra deliveries. Rows for different users also make a
/// `SHARED_TRANSACTION`: both fire, and the shared amount is part of this one.
public struct DuplicateRecord: TransactionDetector {
    public let code = FindingCode.duplicateRecord

    /// The detector.
    public init() {}

    public func inspect(_ facts: TransactionFacts, into findings: inout FindingCollector) {
        let group = facts.group

        let rows = group.records.filter(facts.isCredited).sorted(by: LedgerTransaction.bookingOrder)
        guard rows.count >= 2, let first = rows.first else { return }
        var extra = MoneyTally()
        for row in rows.dropFirst() { extra.add(facts.value(of: row), for: row.recordID) }
        findings.report(
            Finding(
                code, transactionID: group.transactionID, originalTransactionID: first.originalTransactionID,
                userIDs: rows.map(\.userID), productID: first.productID,
                environment: facts.effectiveEnvironment(of: first), amount: extra.amount,
                message: .duplicate(group.transactionID, rows: rows, extra: extra),
                recordIDs: rows.map(\.recordID), receiptID: first.receiptID))
    }
}

fileprivate extension Finding.Message {
    static func duplicate(_ transactionID: String, rows: [LedgerTransaction], extra: MoneyTally) -> Self {
        let records = FindingText.list(rows.map(\.recordID))
        let deliveries = extra.count == 1 ? "1 extra delivery" : "\(extra.count) extra deliveries"
        return Self(
            "Transaction \(transactionID) is recorded \(rows.count) times (records \(records)); "
                + "\(deliveries) worth \(extra.text)")
    }
}
