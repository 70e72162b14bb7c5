import AppleData
import ReconModel
import ReconStorage

/// `STUCK_PENDING`: a purchase still pending verification after the pending limit.
///
/// Rule, per `pending` row of a real Production purchase whose purchase date is more than the
/// pending limit before "now" — unless the same problem is already reported more precisely:
/// a delivered row that never verified is `DELIVERED_UNVERIFIED`, and an undelivered row Apple
/// confirmed as paid is `UNDELIVERED`. The amount is the row's value: revenue not yet confirmed.
public struct StuckPending: TransactionDetector {
    public let code = FindingCode.stuckPending

    /// The detector.
    public init() {}

    public func inspect(_ facts: TransactionFacts, into findings: inout FindingCollector) {
        let context = facts.context

        let deadline = context.asOf - context.pendingLimitMillis
        let stale = facts.booked.filter {
            $0.verificationStatus == .pending && $0.purchaseDate < deadline && facts.isRealPurchase($0)
        }
        guard !stale.isEmpty else { return }
        let owed = Set(facts.owedRows.map(\.recordID))
        for row in stale {
            guard !owed.contains(row.recordID), !facts.isDeliveredUnverified(row) else { continue }
            let value = facts.value(of: row)
            findings.report(
                Finding(
                    code, row: row, environment: facts.effectiveEnvironment(of: row), amount: value,
                    message: .stuckPending(row, facts: facts, value: value)))
        }
    }
}

fileprivate extension Finding.Message {
    static func stuckPending(_ row: LedgerTransaction, facts: TransactionFacts, value: Money?) -> Self {
        let worth = value.map { " worth \($0.text)" } ?? ""
        let note = facts.confirmedByApple ? " although Apple's evidence confirms it" : ""
        return Self(
            "Record \(row.recordID) (transaction \(row.transactionID), \(row.productID)\(worth), "
                + "user \(row.userID)) is still pending verification\(note), ", ageFrom: row.purchaseDate,
            to: facts.context.asOf, " after purchase")
    }
}
