import AppleData
import ReconModel
import ReconStorage

/// `SANDBOX_IN_PRODUCTION`: booked as Production revenue, but the purchase was a test purchase.
///
/// Rule, per transaction id: rows the ledger counts as revenue (Production, not `invalid`), and
/// usable evidence says Sandbox, Xcode or LocalTesting (status 21007, `environment: Sandbox`,
/// app receipt type `ProductionSandbox`/`Xcode`, JWS `Sandbox`/`Xcode`/`LocalTesting`) while no
/// trusted evidence says Production. Any such evidence counts, verified or not: a receipt that
/// itself says Sandbox is not revenue. One finding per transaction; the amount is the value of
/// every such row (all of it is revenue that is not real). The money detectors then treat the
/// transaction as a test purchase, so it is not also a duplicate, refund or price problem.
public struct SandboxInProduction: TransactionDetector {
    public let code = FindingCode.sandboxInProduction

    /// The detector.
    public init() {}

    public func inspect(_ facts: TransactionFacts, into findings: inout FindingCollector) {
        let group = facts.group

        guard case .test(let environment, let evidence) = facts.environment else { return }
        let rows = group.records.filter(\.ledgerCountsAsRevenue).sorted(
            by: LedgerTransaction.bookingOrder)
        guard let first = rows.first else { return }
        var amount = MoneyTally()
        for row in rows { amount.add(facts.value(of: row), for: row.recordID) }
        findings.report(
            Finding(
                code, transactionID: group.transactionID, originalTransactionID: first.originalTransactionID,
                userIDs: rows.map(\.userID), productID: first.productID, environment: environment,
                amount: amount.amount,
                message: .sandboxInProduction(
                    group.transactionID, rows: rows, environment: environment,
                    evidence: evidence, amount: amount),
                recordIDs: rows.map(\.recordID), receiptID: first.receiptID ?? evidence.receiptID))
    }
}

fileprivate extension Finding.Message {
    static func sandboxInProduction(
        _ transactionID: String, rows: [LedgerTransaction], environment: StoreEnvironment,
        evidence: EvidenceRecord, amount: MoneyTally
    ) -> Self {
        Self(
            "Transaction \(transactionID) is booked as Production revenue "
                + "(\(FindingText.records(rows))) but \(FindingText.describe(evidence)) "
                + "says \(environment); \(amount.text) of revenue is not real")
    }
}
