import AppleData
import ReconModel
import ReconStorage

/// The month close (CONTRACT §5 `month_close.csv`): Apple's Financial Reports beside the ledger, then
/// beside Apple's payment summaries, and the findings where they disagree.
public enum MonthCloseBuilder {
    /// The month close of the compared fiscal months, and its `FINANCIAL_REPORT_MISMATCH` and
    /// `PAYMENT_MISMATCH` findings.
    ///
    /// A payment summary is matched with the Financial Reports of the fiscal month it names (the month
    /// of a period's middle day, ``FiscalPeriod/month``). One whose month has a report not yet compared
    /// (its period ends after the as-of) waits for it.
    ///
    /// - Parameters:
    ///   - reconciliation: the Financial Reports beside the ledger, every transaction added.
    ///   - summaries: the payment summaries in the store.
    ///   - reportPeriods: the fiscal months of every report in the store, compared or not.
    ///   - timeZone: the reports' time zone (IANA name), for the report.
    public static func build(
        _ reconciliation: FinancialReconciliation, summaries: [PaymentSummary], reportPeriods: [FiscalPeriod],
        timeZone: String, financial: [FinancialReportMismatch] = [FinancialReportMismatch()],
        payment: [PaymentMismatch] = [PaymentMismatch()]
    ) -> (report: MonthCloseReport?, findings: [Finding]) {
        var collector = FindingCollector()
        let lines = reconciliation.lines()
        for detector in financial {
            for line in lines { detector.inspect(line, into: &collector) }
        }
        var mismatched = Set(
            lines.filter { !$0.matches }.map {
                MonthCloseKey(period: $0.key.period, currency: $0.appleProceeds?.currency ?? $0.key.currency)
            })
        var payments: [MonthCloseKey: MonthClosePayment] = [:]
        for summary in summaries {
            let period = reconciliation.periods.first { $0.month == summary.month }
            if period == nil, reportPeriods.contains(where: { $0.month == summary.month }) { continue }
            var currencies = Set(summary.regions.map(\.currency))
            if let period {
                currencies.formUnion(reconciliation.regions.keys.filter { $0.period == period }.map(\.currency))
            }
            for currency in currencies.sorted() {
                let paid = MonthClosePayment(summary.regions.filter { $0.currency == currency })
                let key = period.map { MonthCloseKey(period: $0, currency: currency) }
                let month = summary.month
                let check = PaymentMismatch.Check(
                    month: month, currency: currency, payment: paid,
                    reported: key.flatMap { reconciliation.regions[$0]?.appleProceeds },
                    subject: key?.subject ?? "\(month.year)-\(month.month < 10 ? "0" : "")\(month.month)|\(currency)")
                let before = collector.count
                for detector in payment { detector.inspect(check, into: &collector) }
                if let key {
                    payments[key] = paid
                    if collector.count > before { mismatched.insert(key) }
                }
            }
        }
        guard !reconciliation.periods.isEmpty else { return (nil, collector.reported) }
        let keys = Set(reconciliation.regions.keys).union(payments.keys).sorted()
        let closeLines = keys.map { key in
            let payment = payments[key]
            return MonthCloseLine(
                key: key, figures: reconciliation.regions[key] ?? MonthCloseFigures(), payment: payment,
                status: mismatched.contains(key) ? "mismatch" : payment == nil ? "unpaid" : "match")
        }
        return (MonthCloseReport(timeZone: timeZone, lines: closeLines, financial: lines), collector.reported)
    }
}
