import AppleData
import ReconModel
import ReconStorage

/// `SALES_REPORT_MISMATCH`: for one day, product, storefront and currency, Apple's Summary Sales
/// Report and the ledger's Production purchases disagree on units or on the customer amount
/// (refunds included).
///
/// Rule, per ``SalesReconciliationLine`` of a day an imported report covers: any difference in
/// units or amount is a finding. `transaction_id` is empty (no single transaction is at fault);
/// the amount is Apple's amount minus the ledger's; the detail gives both figures and the
/// ledger's transactions (the first ``listedTransactions``; every one is in the ledger on that
/// key). Its identity is the key (``SalesKey/subject``) alone: no user or record is at fault,
/// so none is attached (a busy day would attach thousands).
public struct SalesReportMismatch: Detector {
    public let code = FindingCode.salesReportMismatch

    /// The most transaction ids a detail lists.
    package static let listedTransactions = 20

    /// The detector.
    public init() {}

    /// Reports the line when the two sides disagree.
    ///
    /// - Parameters:
    ///   - line: one key's figures.
    ///   - timeZone: the sales reports' time zone, named in the detail.
    ///   - findings: where findings go.
    public func inspect(_ line: SalesReconciliationLine, timeZone: String, into findings: inout FindingCollector) {
        guard !line.matches else { return }
        let (difference, overflow) = line.appleAmount.subtractingReportingOverflow(line.ledgerAmount)
        findings.report(
            Finding(
                code: code, transactionID: "", userIDs: [], productID: line.key.productID,
                environment: .production,
                amount: overflow ? nil : Money(milliunits: difference, currency: line.key.currency),
                detail: Finding.Message.salesReportMismatch(line, timeZone: timeZone).text,
                subject: line.key.subject))
    }

    /// `findings` plus the mismatches among `lines`, in report order.
    public static func merge(
        _ lines: [SalesReconciliationLine], timeZone: String, into findings: [Finding],
        detectors: [SalesReportMismatch] = DetectorSet.all.sales
    ) -> [Finding] {
        var collector = FindingCollector()
        for finding in findings + Self.findings(lines, timeZone: timeZone, detectors: detectors) {
            collector.report(finding)
        }
        return collector.sorted
    }

    /// The findings of `detectors` on the sales reconciliation's `lines`, in the order found.
    public static func findings(
        _ lines: [SalesReconciliationLine], timeZone: String, detectors: [SalesReportMismatch] = DetectorSet.all.sales
    ) -> [Finding] {
        var collector = FindingCollector()
        for detector in detectors {
            for line in lines { detector.inspect(line, timeZone: timeZone, into: &collector) }
        }
        return collector.reported
    }
}

fileprivate extension Finding.Message {
    static func salesReportMismatch(_ line: SalesReconciliationLine, timeZone: String) -> Self {
        let key = line.key
        func money(_ milli: Int64) -> String { Money(milliunits: milli, currency: key.currency).text }
        func units(_ n: Int64) -> String { n == 1 || n == -1 ? "\(n) unit" : "\(n) units" }
        var ledger = "the ledger \(units(line.ledgerUnits)), \(money(line.ledgerAmount))"
        let ids = line.transactionIDs
        if ids.isEmpty {
            ledger += " (no transaction)"
        } else {
            let shown = ids.prefix(SalesReportMismatch.listedTransactions).joined(separator: ", ")
            let more =
                ids.count > SalesReportMismatch.listedTransactions
                ? " and \(ids.count - SalesReportMismatch.listedTransactions) more" : ""
            ledger += " (transaction\(ids.count == 1 ? "" : "s") \(shown)\(more))"
        }
        return Self(
            "On \(Timestamp.dayString(key.day)) (\(timeZone)) \(key.productID) in \(key.storefront) \(key.currency): "
                + "Apple's sales report shows \(units(line.appleUnits)), \(money(line.appleAmount)); \(ledger)")
    }
}
