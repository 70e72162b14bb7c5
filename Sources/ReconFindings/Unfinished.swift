import AppleData
import ReconModel
import ReconStorage

/// `UNFINISHED`: delivered, but the client never reported `finishTransaction`.
///
/// Rule, per row of a real Production purchase: `delivered_at` set, no `finished_at`, and
/// delivered more than the finish grace before "now". No money is at stake (the amount is empty):
/// the risk is StoreKit handing the transaction to the app again.
public struct Unfinished: TransactionDetector {
    public let code = FindingCode.unfinished

    /// The detector.
    public init() {}

    public func inspect(_ facts: TransactionFacts, into findings: inout FindingCollector) {
        let context = facts.context

        let deadline = context.asOf - context.finishGraceMillis
        for row in facts.booked where facts.isRealPurchase(row) {
            guard let delivered = row.deliveredAt, row.finishedAt == nil, delivered < deadline else { continue }
            findings.report(
                Finding(
                    code, row: row, environment: facts.effectiveEnvironment(of: row),
                    message: .unfinished(row, delivered: delivered, asOf: context.asOf)))
        }
    }
}

fileprivate extension Finding.Message {
    static func unfinished(_ row: LedgerTransaction, delivered: Int64, asOf: Int64) -> Self {
        Self(
            "Record \(row.recordID) (transaction \(row.transactionID), user \(row.userID)) was delivered "
                + "\(FindingText.timestamp(delivered)) but the app has not finished the transaction ",
            ageFrom: delivered, to: asOf, " later")
    }
}
