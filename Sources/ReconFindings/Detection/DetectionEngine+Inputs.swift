import Foundation
import ReconModel
import ReconStorage

/// What the engine reads before it judges: the thresholds with the store's catalog and same-purchase index, and
/// Apple's reports; and what it keeps once the reports are written.
extension DetectionEngine {
    /// The detection thresholds at `asOf`, with the store's catalog.
    public func detectStage(asOf: Int64) throws -> DetectStage {
        var context = settings.context(asOf: asOf, catalog: try ledger.catalog())
        context.samePurchase = try ledger.samePurchaseIndex()
        return DetectStage(context: context)
    }

    /// The sales reconciliation detection runs with (`context`: its as-of, catalog and bundle ids): the store's
    /// sales report days and rows, in the sales reports' time zone; the ledger side is added during detection.
    ///
    /// Returns Apple's rows too (their developer proceeds price the revenue lines), and the stored days (whether a
    /// Sales Report is in the store).
    package func salesReconciliation(_ context: DetectionContext) throws -> (
        reconciliation: SalesReconciliation, rows: [SalesReportRow], days: [Int]
    ) {
        let days = try appleReports.salesReportDays()
        let rows = days.isEmpty ? [] : try appleReports.salesReportRows()
        return (
            SalesReconciliation(
                timeZone: settings.salesReportTimeZone, days: days, apple: rows, asOf: context.asOf,
                app: SalesReportApp(context)), rows, days
        )
    }

    /// Apple's proceeds per unit (the Financial Reports' partner shares, then the Sales Reports' developer proceeds
    /// of `sales`) and the Financial Reports beside the ledger at `asOf`, from the store's reports.
    ///
    /// The ledger side is added during detection. Nil reconciliation when no Financial Report is stored.
    package func financialReconciliation(asOf: Int64, context: DetectionContext, sales: [SalesReportRow]) throws -> (
        proceeds: AppleProceeds, reconciliation: FinancialReconciliation?, periods: [FiscalPeriod]
    ) {
        var proceeds = AppleProceeds(timeZone: settings.salesReportTimeZone)
        proceeds.add(sales: sales)
        guard try appleReports.hasFinancialReports() else { return (proceeds, nil, []) }
        let rows = try appleReports.financialReportRows()
        proceeds.add(financial: rows)
        let reconciliation = FinancialReconciliation(
            timeZone: settings.salesReportTimeZone, rows: rows, asOf: asOf, app: SalesReportApp(context),
            pricer: ProceedsPricer(context: context, appleProceeds: proceeds))
        return (proceeds, reconciliation, Array(Set(rows.map(\.period))).sorted())
    }

    /// Makes what a written report showed the baseline of the next report's `revenue_changes.csv`, and what the next
    /// report builds on: called only once the report at `asOf` was written.
    ///
    /// `schedule` is the `revenue_schedule.csv` that report wrote, kept with the results so the next report can patch
    /// it; nil: the next one writes it whole.
    public func commit(_ detection: DetectionResult, asOf: Int64, schedule: RevenueScheduleRecord? = nil) throws {
        let plan = detection.plan
        try revenueRecords.keepTransactionResults(
            everything: plan.everything,
            state: DetectionState(
                fingerprint: plan.fingerprint, asOf: asOf, counters: detection.revenueCounters),
            samePurchase: plan.samePurchase, recognitionMonths: detection.recognitionMonths, schedule: schedule)
        // The roll-forward becomes the baseline of the next report's restated months, unless this report looked
        // back at a month before the baseline's.
        let rows = detection.deferred.rows()
        let lastMonth = detection.deferred.lastMonth
        if try revenueRecords.deferredRevenueShown().map({ $0.lastMonth <= lastMonth }) ?? true {
            try revenueRecords.keepDeferredRevenueShown(rows, lastMonth: lastMonth)
        }
    }
}
