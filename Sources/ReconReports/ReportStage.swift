import Foundation
import Logging
import ReconFindings
import ReconModel
import ReconStorage

/// The last stage: gathers what the report files show from the store and this run's detection,
/// and writes `discrepancies.csv`, `revenue_daily.csv`, `rejected.csv`, `revenue_changes.csv` and
/// `reconciliation.xlsx` (and `sales_reconciliation.csv` when a sales report is in the store) into the
/// output folder. (`run.json` is the run recorder's, written once the run is complete.)
public struct ReportStage {
    public var outputDirectory: String
    public var timeZoneName: String
    public var logger: Logger
    /// The run's clock, for the debug log's time per file (none: not timed).
    public var clock: (any ReconClock)?
    /// The amount revenue recognition defers (`--recognition-basis`), named on the `Deferred Revenue` sheet.
    public var recognitionBasis: RecognitionBasis = .proceeds

    public init(
        outputDirectory: String, timeZoneName: String, logger: Logger = Logger(label: "iap-recon"),
        clock: (any ReconClock)? = nil
    ) {
        self.outputDirectory = outputDirectory
        self.timeZoneName = timeZoneName
        self.logger = logger
        self.clock = clock
    }

    /// The files a report run writes, in the output folder.
    public static let fileNames = [
        "discrepancies.csv", "revenue_daily.csv", "rejected.csv", "reconciliation.xlsx", "run.json",
        "revenue_changes.csv", "deferred_revenue.csv", "revenue_schedule.csv", "consumption_requests.csv",
    ]

    /// Written besides ``fileNames`` when any evidence carries `commitmentInfo`; removed otherwise.
    public static let commitmentsFileName = "commitments.csv"

    /// Written besides ``fileNames`` when a sales report is in the store (header-only when no day
    /// was compared); removed otherwise, so the folder never shows an earlier run's reconciliation.
    public static let salesFileName = "sales_reconciliation.csv"

    /// Written besides ``fileNames`` when entitlements are in the store; removed otherwise.
    public static let subscriptionsFileName = "subscriptions.csv"

    /// Written besides ``fileNames`` when a Financial Report is in the store; removed otherwise.
    public static let monthCloseFileNames = ["month_close.csv", "financial_reconciliation.csv"]

    /// The report of `store` at `asOf`: revenue as detection accumulated it, the findings, the
    /// rejected and pending rows, Apple's sales beside the ledger (`sales`, nil when no sales
    /// report was compared), and `run` completed with the store's counts and the totals.
    package func assemble(
        store: any ReportStore, asOf: Int64, revenue: RevenueBuilder, findings: RecordedFindings, run: RunRecord,
        sales: SalesReconciliationReport? = nil, monthClose: MonthCloseReport? = nil,
        subscriptions: SubscriptionsReport? = nil, appleWord: AppleWordReport = AppleWordReport(),
        deferred: DeferredRevenueRollForward? = nil,
        deferredJudgedEverything: Bool = true, deferredRestatements: [DeferredRevenueRestatement] = []
    ) throws -> ReconciliationReport {
        var run = run
        let counts = try store.ledger.counts()
        run.counts.transactionsInStore = counts.transactions
        run.counts.receiptsInStore = counts.receipts
        run.counts.rejectedInStore = counts.rejected
        run.counts.stillPending = counts.pending
        run.counts.salesReportRowsOfOtherApps = sales?.rowsOfOtherApps
        run.findingsByCode = findings.totals.countsByCode
        run.findingsBySeverity = findings.totals.countsBySeverity
        run.newFindings = findings.totals.new
        run.resolvedFindings = findings.totals.resolved

        var report = ReconciliationReport(
            asOf: asOf, timeZone: timeZoneName, revenue: revenue.rows(), findings: findings.totals,
            findingsRecordedBy: findings.runID, rejected: try store.ledger.rejectedRows(),
            pendingTotal: counts.pending, recoveredFromSandbox: revenue.recoveredFromSandbox,
            excludedAsSandbox: revenue.excludedAsSandbox, unpricedTransactions: revenue.unpricedTransactions,
            duplicateRowsIgnored: revenue.duplicateRowsIgnored, run: run)
        // Revenue never changes silently: detection compared it with what the previous report
        // showed; this report becomes the next one's baseline once written
        // (``DetectionEngine/commit(_:asOf:)``).
        report.revenueChanges = revenue.changes
        report.sales = sales
        report.salesReportInStore = try !store.appleReports.salesReportDays().isEmpty
        report.monthClose = monthClose
        report.subscriptions = subscriptions
        report.appleWord = appleWord
        run.notificationsByType = appleWord.notificationsByType
        if let deferred {
            report.deferred = DeferredRevenueReport(
                deferred, basis: recognitionBasis, judgedEverything: deferredJudgedEverything)
        }
        report.deferred.restatements = deferredRestatements
        report.deferred.contractedNotYetBilled = appleWord.unbilledByCurrency
        if !deferredRestatements.isEmpty { run.deferredRevenueRestated = deferredRestatements.map(\.text) }
        report.financialReportInStore = try store.appleReports.hasFinancialReports()
        for total in report.totalsByCurrency {
            run.revenueNetByCurrency[total.currency] = Money(milliunits: total.net, currency: total.currency).formatted
            if [total.gross, total.refunds, total.net, total.proceeds].contains(where: Money.isSaturated) {
                let warning =
                    "revenue in \(total.currency) overflows the money type; its sums are capped and shown as 'overflow'"
                run.warnings = (run.warnings ?? []) + [warning]
            }
        }
        report.run = run
        return report
    }

    /// Writes the CSV files and the workbook of `report`; the findings and the pending rows stream from `store`,
    /// never all in memory.
    ///
    /// Values a format cannot hold become warnings in `report.run` (and so in run.json), never a failed report.
    package func write(_ report: inout ReconciliationReport, store: any ReportStore) throws {
        let out = outputDirectory
        var timer = clock.map { PhaseTimer("report files", clock: $0, logger: logger) }
        try ReportFile.ensureDirectory(out)
        try ReportFile.write(CSVReports.revenue(report).encoded(), to: out + "/revenue_daily.csv")
        try ReportFile.write(CSVReports.rejected(report).encoded(), to: out + "/rejected.csv")
        try ReportFile.write(CSVReports.revenueChanges(report).encoded(), to: out + "/revenue_changes.csv")
        try ReportFile.write(CSVReports.deferredRevenue(report.deferred).encoded(), to: out + "/deferred_revenue.csv")
        timer?.lap("revenue CSV files")
        // Whole, the schedule is written beside the workbook; patched, here and now.
        let alongside = startRevenueScheduleAlongside(report, store: store)
        defer { _ = try? alongside?.join() }
        if alongside == nil {
            let schedule = try writeRevenueSchedule(&report, store: store)
            timer?.lap("revenue_schedule.csv", ["copied": "\(schedule.copied)", "written": "\(schedule.rendered)"])
        }
        let salesPath = out + "/" + Self.salesFileName
        if let sales = report.sales {
            try ReportFile.write(CSVReports.salesReconciliation(sales).encoded(), to: salesPath)
        } else if report.salesReportInStore {
            // CONTRACT §5: written whenever a sales report is in the store; no day compared, no rows.
            let none = SalesReconciliationReport(timeZone: report.timeZone, comparedDays: [], lines: [])
            try ReportFile.write(CSVReports.salesReconciliation(none).encoded(), to: salesPath)
        } else {
            try ReportFile.remove(salesPath)
        }
        try writeMonthClose(report)
        let subscriptionsPath = out + "/" + Self.subscriptionsFileName
        if let subscriptions = report.subscriptions {
            try ReportFile.write(CSVReports.subscriptions(subscriptions).encoded(), to: subscriptionsPath)
        } else {
            try ReportFile.remove(subscriptionsPath)
        }
        try writeAppleWord(report)
        timer?.lap("other CSV files")
        let warnings = report.run.warnings ?? []
        // The findings are read once, for the workbook's Discrepancies sheet and for discrepancies.csv.
        let discrepancies = try CSVFile(path: out + "/discrepancies.csv", header: CSVReports.discrepanciesHeader)
        let workbookWarnings = try XLSXReportWriter.write(report, store: store, to: out + "/reconciliation.xlsx") {
            try discrepancies.append(CSVReports.discrepancy($0))
        }
        try discrepancies.commit()
        timer?.lap("reconciliation.xlsx and discrepancies.csv")
        if let alongside {
            let schedule = try finishRevenueSchedule(alongside, &report)
            timer?.lap("revenue_schedule.csv, written beside them", ["written": "\(schedule.rendered)"])
        }
        if !(warnings + workbookWarnings).isEmpty { report.run.warnings = warnings + workbookWarnings }
        for warning in workbookWarnings { logger.warning("\(warning)") }
        logger.info("reports written", metadata: ["out": "\(out)"])
    }

    /// `consumption_requests.csv` (header-only when there is none) and `commitments.csv` when any evidence carries
    /// `commitmentInfo` (removed otherwise, so the folder never shows an earlier run's).
    private func writeAppleWord(_ report: ReconciliationReport) throws {
        try ReportFile.write(
            CSVReports.consumptionRequests(report.appleWord.consumptionRequests).encoded(),
            to: outputDirectory + "/consumption_requests.csv")
        let commitmentsPath = outputDirectory + "/" + Self.commitmentsFileName
        if let commitments = report.appleWord.commitments {
            try ReportFile.write(CSVReports.commitments(commitments).encoded(), to: commitmentsPath)
        } else {
            try ReportFile.remove(commitmentsPath)
        }
    }

    /// `month_close.csv` and `financial_reconciliation.csv` when a Financial Report is in the store (header-only
    /// when no fiscal month was compared); removed otherwise, so the folder never shows an earlier run's.
    private func writeMonthClose(_ report: ReconciliationReport) throws {
        let paths = Self.monthCloseFileNames.map { outputDirectory + "/" + $0 }
        guard report.financialReportInStore else {
            for path in paths { try ReportFile.remove(path) }
            return
        }
        let close = report.monthClose ?? MonthCloseReport(timeZone: report.timeZone, lines: [], financial: [])
        try ReportFile.write(CSVReports.monthClose(close).encoded(), to: paths[0])
        try ReportFile.write(CSVReports.financialReconciliation(close).encoded(), to: paths[1])
    }

    /// One line saying what the report concluded.
    public static func summaryLine(_ report: ReconciliationReport) -> String {
        let net = report.totalsByCurrency.map {
            "\(Money(milliunits: $0.net, currency: $0.currency).formatted) \($0.currency)"
        }
        let bySeverity = Severity.allCases.compactMap { s -> String? in
            let n = report.findings.count(s)
            return n > 0 ? "\(n) \(s.rawValue)" : nil
        }
        var parts = ["findings: \(report.findings.count)"]
        if !bySeverity.isEmpty { parts[0] += " (" + bySeverity.joined(separator: ", ") + ")" }
        parts.append("net revenue: " + (net.isEmpty ? "none" : net.joined(separator: ", ")))
        parts.append("pending: \(report.pendingTotal)")
        parts.append("rejected rows: \(report.rejected.count)")
        parts.append("reports: \(report.run.outputDirectory ?? "")")
        return parts.joined(separator: "; ")
    }
}
