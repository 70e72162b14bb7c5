import AppleData
import ReconModel
import ReconStorage

/// `PRODUCTION_AS_SANDBOX`: a real Production purchase booked as a test purchase (revenue missed).
///
/// Rule, per transaction id: trusted evidence says Production (status 21008; a verifyReceipt
/// answer with status 0 stating Production; a Server API answer; an offline receipt or JWS whose
/// signature was verified) and no trusted evidence says otherwise; some row is booked as a test
/// environment; and no row of the transaction counts it as revenue (else nothing is missed).
/// An unverified offline claim of Production proves nothing and is ignored. The amount is the
/// value of one purchase.
public struct ProductionAsSandbox: TransactionDetector {
    public let code = FindingCode.productionAsSandbox

    /// The detector.
    public init() {}

    public func inspect(_ facts: TransactionFacts, into findings: inout FindingCollector) {
        let group = facts.group

        guard case .production(let evidence) = facts.environment,
            !group.records.contains(where: \.ledgerCountsAsRevenue)
        else { return }
        let rows = group.records.filter { !$0.environment.isProduction }.sorted(by: LedgerTransaction.bookingOrder)
        guard let first = rows.first else { return }
        let value = facts.value(of: first)
        findings.report(
            Finding(
                code, transactionID: group.transactionID, originalTransactionID: first.originalTransactionID,
                userIDs: rows.map(\.userID), productID: first.productID, environment: .production, amount: value,
                message: .productionAsSandbox(first, rows: rows, evidence: evidence, value: value),
                recordIDs: rows.map(\.recordID), receiptID: first.receiptID ?? evidence.receiptID))
    }
}

fileprivate extension Finding.Message {
    static func productionAsSandbox(
        _ first: LedgerTransaction, rows: [LedgerTransaction], evidence: EvidenceRecord, value: Money?
    ) -> Self {
        let worth = value.map(\.text) ?? "an unknown amount"
        return Self(
            "Transaction \(first.transactionID) is booked as \(first.environment) "
                + "(\(FindingText.records(rows))) but \(FindingText.describe(evidence)) "
                + "says Production; \(worth) of revenue is missing from the reports")
    }
}
