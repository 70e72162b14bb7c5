import AppleData
import ReconModel
import ReconStorage

/// `FINANCIAL_REPORT_MISMATCH`: for one fiscal month, product, country and customer currency, Apple's
/// Financial Report and the ledger disagree on units or on the customer amount (sales less returns).
///
/// Rule, per ``FinancialReconciliationLine`` of a fiscal month a stored report covers: any difference
/// in units or amount is a finding. `transaction_id` is empty (no single transaction is at fault); the
/// amount is Apple's customer amount minus the ledger's, in the customer currency; the detail gives
/// both figures and the transactions behind the ledger's side (the first
/// ``SalesReportMismatch/listedTransactions``). Its identity is the key (``FinancialKey/subject``).
public struct FinancialReportMismatch: Sendable {
    public let code = FindingCode.financialReportMismatch

    /// The detector.
    public init() {}

    /// Reports the line when the two sides disagree.
    public func inspect(_ line: FinancialReconciliationLine, into findings: inout FindingCollector) {
        guard !line.matches else { return }
        let (difference, overflow) = line.appleAmount.subtractingReportingOverflow(line.ledgerAmount)
        findings.report(
            Finding(
                code: code, transactionID: "", userIDs: [], productID: line.key.productID, environment: .production,
                amount: overflow ? nil : Money(milliunits: difference, currency: line.key.currency),
                detail: Finding.Message.financialReportMismatch(line).text, subject: line.key.subject))
    }
}

fileprivate extension Finding.Message {
    static func financialReportMismatch(_ line: FinancialReconciliationLine) -> Self {
        let key = line.key
        func money(_ milli: Int64) -> String { Money(milliunits: milli, currency: key.currency).text }
        func units(_ n: Int64) -> String { n == 1 || n == -1 ? "\(n) unit" : "\(n) units" }
        var ledger = "the ledger \(units(line.ledgerUnits)), \(money(line.ledgerAmount))"
        let ids = line.transactionIDs
        let limit = SalesReportMismatch.listedTransactions
        if ids.isEmpty {
            ledger += " (no transaction)"
        } else {
            let more = ids.count > limit ? " and \(ids.count - limit) more" : ""
            ledger +=
                " (transaction\(ids.count == 1 ? "" : "s") \(ids.prefix(limit).joined(separator: ", "))\(more))"
        }
        return Self(
            "In fiscal \(key.period.month.text) (\(key.period.text)) \(key.productID) in \(key.country) "
                + "\(key.currency): Apple's Financial Report shows \(units(line.appleUnits)), "
                + "\(money(line.appleAmount)); \(ledger)")
    }
}
