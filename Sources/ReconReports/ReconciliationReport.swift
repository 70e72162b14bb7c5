import ReconFindings
import ReconModel
import ReconStorage

/// Everything the report files show, gathered once from the store.
public struct ReconciliationReport: Sendable {
    public var asOf: Int64
    public var timeZone: String
    public var revenue: [RevenueRow]
    /// This run's findings, counted; the store keeps them (``FindingRepository/forEachRunFinding(at:_:)``).
    public var findings: FindingTotals
    /// The run that recorded the findings' history, whose resolved findings are shown
    /// (``FindingRepository/forEachFindingResolved(runID:at:_:)``); nil when the history was only read.
    public var findingsRecordedBy: Int64?
    public var rejected: [RejectedRow]
    /// Pending ledger rows in the store; the workbook lists the oldest ``pendingLimit``.
    public var pendingTotal: Int
    public var recoveredFromSandbox: [String: Int64]
    public var excludedAsSandbox: [String: Int64]
    public var unpricedTransactions: Int
    public var duplicateRowsIgnored: Int
    public var run: RunRecord
    /// Changes to days the previous report from this store already showed.
    public var revenueChanges: [RevenueChange] = []
    /// Apple's Summary Sales Reports beside the ledger; nil when no sales report is in the store
    /// or none covers a day this report compares.
    public var sales: SalesReconciliationReport? = nil
    /// Whether a sales report is in the store: CONTRACT §5 writes `sales_reconciliation.csv` then,
    /// header-only when no day was compared.
    public var salesReportInStore = false
    /// Apple's Financial Reports beside the ledger and the payments; nil when none covers a fiscal
    /// month this report compares.
    public var monthClose: MonthCloseReport? = nil
    /// Whether a Financial Report is in the store: CONTRACT §5 writes `month_close.csv` and
    /// `financial_reconciliation.csv` then, header-only when no month was compared.
    public var financialReportInStore = false
    /// The entitlements compared with Apple; nil when none is in the store.
    public var subscriptions: SubscriptionsReport? = nil
    /// Apple's requests and alarms: consumption requests, commitments, notifications by type (CONTRACT §7).
    public var appleWord = AppleWordReport()
    /// Revenue recognized as the service is delivered (CONTRACT §5.1): `deferred_revenue.csv`,
    /// `revenue_schedule.csv` and the `Deferred Revenue` sheet.
    public var deferred = DeferredRevenueReport()
    /// The `revenue_schedule.csv` this report wrote, once written: kept with the results, so the next report can
    /// patch it.
    public var revenueSchedule: RevenueScheduleRecord? = nil
    /// Its lines copied from the last report's file and written from the store (``ReportStage``).
    public var revenueScheduleLines: (copied: Int, written: Int) = (0, 0)

    /// Excel's row limit leaves room for a header.
    public static let pendingLimit = 1_000_000

    /// Revenue totals per currency: (gross, refunds, net, proceeds).
    public var totalsByCurrency:
        [(currency: String, units: Int64, gross: Int64, refunds: Int64, net: Int64, proceeds: Int64)]
    {
        var sums: [String: (Int64, Int64, Int64, Int64)] = [:]
        for row in revenue {
            var s = sums[row.currency] ?? (0, 0, 0, 0)
            s.0 += row.units
            s.1 = Money.sum(s.1, row.gross)
            s.2 = Money.sum(s.2, row.refunds)
            s.3 = Money.sum(s.3, row.estimatedProceeds)
            sums[row.currency] = s
        }
        return sums.keys.sorted().map { currency in
            let s = sums[currency] ?? (0, 0, 0, 0)
            return (currency, s.0, s.1, s.2, Money.difference(s.1, s.2), s.3)
        }
    }
}
