import AppleData
import ReconModel
import ReconStorage

/// `DELIVERED_UNVERIFIED`: content was delivered, but the purchase is invalid or never verified.
///
/// Rule, per delivered row of a real Production purchase:
/// - `invalid`: unless Apple refunded or revoked the transaction (marking a refund `invalid` is how
///   the ledger stops counting it; the content was delivered while the purchase was valid). The
///   detail notes when Apple's evidence says valid, so the status can be corrected;
/// - `error`, or `pending` with a purchase date more than the pending limit before "now": unless
///   Apple's evidence confirms the transaction (then it did verify; a stale `pending` is
///   `STUCK_PENDING`).
/// `pending` within the limit is not yet a finding. The amount is the row's value.
public struct DeliveredUnverified: TransactionDetector {
    public let code = FindingCode.deliveredUnverified

    /// The detector.
    public init() {}

    public func inspect(_ facts: TransactionFacts, into findings: inout FindingCollector) {
        let group = facts.group

        for row in group.records.sorted(by: LedgerTransaction.bookingOrder)
        where facts.isDeliveredUnverified(row) {
            let value = facts.value(of: row)
            findings.report(
                Finding(
                    code, row: row, environment: facts.effectiveEnvironment(of: row), amount: value,
                    message: .deliveredUnverified(row, facts: facts, value: value)))
        }
    }
}

fileprivate extension Finding.Message {
    static func deliveredUnverified(_ row: LedgerTransaction, facts: TransactionFacts, value: Money?) -> Self {
        let worth = value.map { " worth \($0.text)" } ?? ""
        let delivered = row.deliveredAt.map(FindingText.timestamp) ?? "?"
        let opening =
            "Record \(row.recordID) delivered \(row.productID)\(worth) to user \(row.userID) "
            + "(transaction \(row.transactionID)) on \(delivered), but "
        switch row.verificationStatus {
        case .invalid:
            return Self(
                opening
                    + (facts.confirmedByApple
                        ? "its verification is recorded as invalid (Apple's evidence says valid: correct the ledger status)"
                        : "its verification says invalid"))
        case .error: return Self(opening + "its verification ended in an error")
        case .pending, .verified:
            return Self(
                opening + "it is still pending verification ", ageFrom: row.purchaseDate, to: facts.context.asOf,
                " after purchase")
        }
    }
}
