import AppleData
import Foundation
import Logging
import ReconModel
import ReconStorage

/// Detection as one engine: it reads the store through what the findings need, runs the detectors' passes over the
/// transactions, the original-transaction groups, the receipts, Apple's reports and the subscriptions, and keeps the
/// incremental report's state in one place (``DetectionResult``), committed once the reports are written
/// (``commit(_:asOf:)``).
///
/// The run sequences import → verify → detect → report; this is the detect.
public struct DetectionEngine {
    public var settings: DetectionSettings
    /// The repositories detection reads, and the two it writes (the findings, the revenue's kept results).
    package var ledger: any LedgerRepository
    package var receipts: any ReceiptRepository
    package var appleReports: any AppleReportRepository
    package var entitlements: any EntitlementRepository
    package var findingRecords: any FindingRepository
    package var revenueRecords: any RevenueRepository
    /// Apple's requests and alarms, the commitments, the consents and the answers sent.
    package var appleWords: any AppleWordRepository
    /// The ledger on a second connection (``DetectionStore/concurrentLedger``), for judging the original-transaction
    /// groups while the transactions' results are kept.
    package var concurrentLedger: (@Sendable () throws -> any LedgerRepository)?
    public var clock: any ReconClock
    public var logger: Logger

    /// The engine over `store`'s repositories.
    package init(settings: DetectionSettings, store: any DetectionStore, clock: any ReconClock, logger: Logger) {
        self.settings = settings
        ledger = store.ledger
        receipts = store.receipts
        appleReports = store.appleReports
        entitlements = store.entitlements
        findingRecords = store.findings
        revenueRecords = store.revenue
        appleWords = store.appleWord
        concurrentLedger = store.concurrentLedger
        self.clock = clock
        self.logger = logger
    }

    /// Detects at `asOf` and records the findings under `runID` (with their history).
    ///
    /// The transactions are judged all, or only those that can have changed since the last written report
    /// (``TransactionPlan``): the others' findings, revenue parts and counts come from the store as that report
    /// left them, and the revenue lines they touch are added up again from their parts. Either way the report is the
    /// same, byte for byte.
    ///
    /// The sales reconciliation sees every transaction in the same pass; its mismatches join the findings. A report
    /// for an as-of earlier than the latest recorded one reads the history but never writes it: resolving or
    /// reopening the live history from an old point of view would rewrite what is known now.
    public func detect(asOf: Int64, runID: Int64) throws -> DetectionResult {
        var timer = PhaseTimer("detect", clock: clock, logger: logger)
        let stage = try detectStage(asOf: asOf)
        let (salesStart, salesRows, salesReportDays) = try salesReconciliation(stage.context)
        let finance = try financialReconciliation(asOf: asOf, context: stage.context, sales: salesRows)
        // A Sales Report row belongs to a stored day: the days alone say whether one is in the store.
        let appleReportsInStore = !salesReportDays.isEmpty || finance.reconciliation != nil
        let pricer = ProceedsPricer(context: stage.context, appleProceeds: finance.proceeds)
        let totals = DetectionTotals(
            revenue: RevenueBuilder(
                timeZone: settings.timeZone, context: stage.context, from: settings.revenueFrom,
                to: settings.revenueTo, appleProceeds: finance.proceeds),
            sales: salesStart, finance: finance.reconciliation,
            events: appleReportsInStore ? (settings.salesReportTimeZone, pricer) : nil,
            deferred: DeferredRevenueRollForward(timeZone: settings.timeZone, asOf: asOf),
            recognition: (settings.recognitionBasis, pricer))
        let plan = try TransactionPlan.make(
            ledger: ledger, revenueRecords: revenueRecords, settings: settings, context: stage.context,
            full: settings.fullReport,
            appleReports: appleReportsInStore)
        if let reason = plan.reason {
            logger.info("judging every transaction", metadata: ["why": "\(reason)"])
        } else {
            logger.info("judging the changed transactions", metadata: ["transactions": "\(plan.rerun)"])
        }
        timer.lap("plan")

        let spool = try findingRecords.startRunFindings()
        let shown = try revenueRecords.revenueShownLines()
        let changes = RevenueChangeTracker(
            previousLines: Set(shown.keys),
            previous: try revenueRecords.revenueShownCursor(rerunOnly: !plan.everything),
            learnedBySweep: try revenueRecords.refundLearnedBySweep())
        let results = try revenueRecords.startTransactionResults(everything: plan.everything)
        var judgedCounters = RevenueCounters()
        var judgedTransactions = 0
        try stage.judgeTransactions(
            plan.everything ? ledger.forEachTransactionGroup : revenueRecords.forEachRerunTransactionGroup,
            alongside: totals.add,
            each: { judged in
                let made = judged.made
                let counters = made?.counters ?? TransactionCounters()
                try results.add(
                    judged.transactionID, originalTransactionID: judged.originalTransactionID,
                    findings: judged.findings, parts: made?.parts ?? [], counters: counters,
                    nextChange: judged.nextChange, events: made?.events ?? [], sale: made?.recognition)
                try changes.add(transactionID: judged.transactionID, contributions: made?.contributions ?? [])
                judgedCounters.add(counters)
                judgedTransactions += 1
                if plan.everything { for finding in judged.findings { try spool.add(finding) } }
            })
        timer.lap("transactions", ["judged": "\(judgedTransactions)"])
        var revenue: RevenueBuilder
        var revenueCounters: RevenueCounters
        if let kept = plan.kept {
            // The lines the judged transactions touch, now or before, added up again from all their parts.
            var lines: [RevenueRow] = []
            let dirty = try revenueRecords.markDirtyLines()
            let partsOf = try revenueRecords.linePartsReader()
            for line in dirty {
                let parts = try partsOf(line.day, line.productID, line.currency)
                guard !parts.isEmpty else { continue }
                lines.append(
                    RevenueBuilder.row(day: line.day, productID: line.productID, currency: line.currency, parts: parts))
            }
            try results.addLines(lines)
            revenueCounters = kept.counters
            for old in try revenueRecords.keptCounters() { revenueCounters.add(old, sign: -1) }
            revenueCounters.add(judgedCounters)
            revenue = RevenueBuilder.restored(
                timeZone: settings.timeZone, context: stage.context, rows: try revenueRecords.revenueLinesKeptAndNew(),
                counters: revenueCounters)
            revenue.changes = try changes.finish(shownNets: shown)
            timer.lap("changed revenue lines", ["lines": "\(lines.count)"])
            try spool.flush()
            try revenueRecords.spoolKeptFindings(asOf: asOf)
            if appleReportsInStore { try addKeptEvents(to: totals, asOf: asOf) }
        } else {
            revenue = totals.revenue
            revenueCounters = judgedCounters
            try results.addLines(revenue.rows())
            revenue.changes = try changes.finish()
        }
        timer.lap(plan.kept == nil ? "revenue lines" : "kept findings")
        let (deferred, recognitionMonths) = try recognition(totals, kept: plan.kept != nil)
        let restated = try revenueRecords.deferredRevenueShown().map {
            DeferredRevenueRestatement.between(previous: $0, current: (deferred.rows(), deferred.lastMonth))
        }
        timer.lap("revenue recognition")
        try spool.flush()
        try judgeOriginalGroupsAndKeepResults(
            stage, plan: plan, results: results, spool: spool, asOf: asOf, timer: &timer)
        try stage.judgeReceipts(receipts, found: spool.add)
        timer.lap("receipts")

        let sales = totals.sales
        var report: SalesReconciliationReport?
        if !sales.comparedDays.isEmpty {
            let zone = settings.salesReportTimeZone.identifier
            let lines = sales.lines()
            for finding in SalesReportMismatch.findings(lines, timeZone: zone, detectors: stage.detectors.sales) {
                try spool.add(finding)
            }
            report = SalesReconciliationReport(
                timeZone: zone, comparedDays: sales.comparedDays, lines: lines, rowsOfOtherApps: sales.rowsOfOtherApps,
                skusOfOtherApps: sales.skusOfOtherApps)
        }
        // With no Financial Report in the store the reconciliation is empty: every region a payment summary pays is
        // then unexplained, and there is no month to close.
        let reconciliation =
            totals.finance
            ?? FinancialReconciliation(
                timeZone: settings.salesReportTimeZone, rows: [], asOf: asOf, app: SalesReportApp(),
                pricer: ProceedsPricer(context: stage.context, appleProceeds: nil))
        let built = MonthCloseBuilder.build(
            reconciliation, summaries: try appleReports.paymentSummaries(), reportPeriods: finance.periods,
            timeZone: settings.salesReportTimeZone.identifier, financial: stage.detectors.financial,
            payment: stage.detectors.payment)
        for finding in built.findings { try spool.add(finding) }
        let subscriptions = try compareSubscriptions(stage, spool: spool)
        let appleWord = try appleWord(stage, spool: spool)
        try spool.flush()
        timer.lap("sales, month close, subscriptions")
        let findings: FindingTotals
        let recorded: Bool
        if let latest = try findingRecords.latestFindingsAsOf(), asOf < latest {
            findings = try findingRecords.lookUpRunFindings()
            recorded = false
        } else {
            findings = try findingRecords.recordRunFindings(runID: runID, at: asOf)
            recorded = true
        }
        timer.lap("findings history", ["findings": "\(findings.count)"])
        return DetectionResult(
            findings: RecordedFindings(totals: findings, runID: recorded ? runID : nil),
            revenue: revenue, deferred: deferred, recognitionMonths: recognitionMonths,
            deferredRestatements: restated ?? [], sales: report,
            monthClose: built.report, subscriptions: subscriptions, appleWord: appleWord, plan: plan,
            revenueCounters: revenueCounters, judgedTransactions: judgedTransactions)
    }
}
