import Foundation
import Logging

/// Detects and writes the reports from the store, without network (the `report` command, and
/// the last stages of `run`).
public struct ReportJob {
    public var config: ReconConfig
    public var clock: TimeSource
    public var logger: Logger

    public init(config: ReconConfig, clock: TimeSource = .system, logger: Logger = Logger(label: "iap-recon")) {
        self.config = config
        self.clock = clock
        self.logger = logger
    }

    /// The files a report run writes, in `--out`.
    public static let fileNames = [
        "discrepancies.csv", "revenue_daily.csv", "rejected.csv", "reconciliation.xlsx", "run.json",
    ]

    /// Builds the report from `store` (recording findings under `summary.runID`) and writes every file.
    ///
    /// - Returns: the report, with `run` completed except for the exit code.
    public func run(store: ReconStore, summary: RunSummary) throws -> ReconciliationReport {
        let asOf = config.asOf ?? clock.nowMillis()
        let zone = try config.resolvedTimeZone()
        let from = try config.fromDay.map { d throws(ConfigError) in try ReconConfig.day(d, key: "from") }
        let to = try config.toDay.map { d throws(ConfigError) in try ReconConfig.day(d, key: "to") }
        var summary = summary

        let detectStart = clock.nowMillis()
        let catalog = try store.catalog()
        let context = DetectionContext(
            asOf: asOf, deliveryGraceMillis: config.deliveryGraceMillis, finishGraceMillis: config.finishGraceMillis,
            pendingLimitMillis: config.pendingLimitMillis, bundleIDs: Set(config.bundleIDs), catalog: catalog)
        var revenue = RevenueBuilder(timeZone: zone, context: context, from: from, to: to)
        let salesDays = try store.salesReportDays()
        var sales = SalesReconciliation(
            timeZone: try config.resolvedSalesReportTimeZone(), days: salesDays,
            apple: salesDays.isEmpty ? [] : try store.salesReportRows())
        var findings = try DetectionStage(context: context).run(store: store) { facts in
            revenue.add(facts)
            sales.add(facts)
        }
        let salesLines = sales.lines()
        findings = SalesReportMismatch.merge(salesLines, timeZone: config.salesReportTimeZone, into: findings)
        let (current, resolved) = try store.recordFindings(findings, runID: summary.runID, at: asOf)
        summary.stages.append(
            .init(name: "detect", durationMillis: clock.nowMillis() - detectStart, counts: ["findings": findings.count]))

        let counts = try store.counts()
        summary.counts.transactionsInStore = counts.transactions
        summary.counts.receiptsInStore = counts.receipts
        summary.counts.rejectedInStore = counts.rejected
        summary.counts.stillPending = counts.pending
        summary.findingsByCode = Dictionary(grouping: findings, by: \.code.rawValue).mapValues(\.count)
        summary.findingsBySeverity = Dictionary(grouping: findings, by: \.severity.rawValue).mapValues(\.count)
        summary.newFindings = current.filter(\.isNew).count
        summary.resolvedFindings = resolved.count

        var report = ReconciliationReport(
            asOf: asOf, timeZone: config.timeZone, revenue: revenue.rows(), findings: current, resolved: resolved,
            rejected: try store.rejectedRows(), pending: try store.pendingTransactions(limit: ReconciliationReport.pendingLimit),
            pendingTotal: counts.pending, recoveredFromSandbox: revenue.recoveredFromSandbox,
            excludedAsSandbox: revenue.excludedAsSandbox, unpricedTransactions: revenue.unpricedTransactions,
            duplicateRowsIgnored: revenue.duplicateRowsIgnored, run: summary)
        if !salesDays.isEmpty {
            report.sales = SalesReconciliationReport(
                timeZone: config.salesReportTimeZone, comparedDays: sales.comparedDays, lines: salesLines)
        }
        for total in report.totalsByCurrency {
            summary.revenueNetByCurrency[total.currency] = Money(milliunits: total.net, currency: total.currency).formatted
        }
        report.run = summary
        return report
    }

    /// Writes every report file of `report` into the output folder (run.json last, so its
    /// presence means the rest is there).
    public func write(_ report: ReconciliationReport) throws {
        let out = config.outputDirectory
        try ReportFile.ensureDirectory(out)
        let writeStart = clock.nowMillis()
        try ReportFile.write(CSVReports.discrepancies(report).encoded(), to: out + "/discrepancies.csv")
        try ReportFile.write(CSVReports.revenue(report).encoded(), to: out + "/revenue_daily.csv")
        try ReportFile.write(CSVReports.rejected(report).encoded(), to: out + "/rejected.csv")
        if let sales = report.sales {
            try ReportFile.write(CSVReports.salesReconciliation(sales).encoded(), to: out + "/sales_reconciliation.csv")
        }
        try XLSXReportWriter.write(report, to: out + "/reconciliation.xlsx")
        var run = report.run
        run.stages.append(.init(name: "report", durationMillis: clock.nowMillis() - writeStart, counts: [:]))
        try ReportFile.write(run.json(), to: out + "/run.json")
        logger.info("reports written", metadata: ["out": "\(out)"])
    }
}

/// Streams the store's transaction groups through the detectors (and any other consumer, such
/// as revenue), then the original-id groups and the receipts. Memory: one group plus findings.
public struct DetectionStage {
    public var context: DetectionContext
    public var detectors: DetectorSet

    public init(context: DetectionContext, detectors: DetectorSet = .all) {
        self.context = context
        self.detectors = detectors
    }

    /// Runs detection over the whole store; `each` sees every transaction's facts too (worked
    /// out once per group, shared with the detectors).
    public func run(store: ReconStore, each: (TransactionFacts) -> Void) throws -> [Finding] {
        var collector = FindingCollector()
        try store.forEachTransactionGroup { group in
            let facts = TransactionFacts(group, in: context)
            each(facts)
            detectors.inspect(facts, into: &collector)
        }
        try store.forEachOriginalTransactionGroup { group in
            detectors.inspect(group, in: context, into: &collector)
        }
        try store.forEachReceiptCase { receiptCase in
            detectors.inspect(receiptCase, in: context, into: &collector)
        }
        return collector.sorted
    }
}
