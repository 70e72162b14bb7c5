/// Everything the report files show, gathered once from the store.
public struct ReconciliationReport: Sendable {
    public var asOf: Int64
    public var timeZone: String
    public var revenue: [RevenueRow]
    /// This run's findings, counted; the store keeps them (``ReconStore/forEachRunFinding(at:_:)``).
    public var findings: FindingTotals
    /// The run that recorded the findings' history, whose resolved findings are shown
    /// (``ReconStore/forEachFindingResolved(runID:at:_:)``); nil when the history was only read.
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

/// The sales reconciliation a report shows (`sales_reconciliation.csv`, sheet `Apple Sales`).
public struct SalesReconciliationReport: Sendable, Hashable {
    /// The sales reports' time zone (IANA name).
    public var timeZone: String
    /// The days an imported report covers: the only days compared, ascending.
    public var comparedDays: [Int]
    /// Every key of those days present on either side, in key order.
    public var lines: [SalesReconciliationLine]
    /// Apple's rows of those days that belong to other apps of the developer account, left out
    /// (``SalesReportApp``).
    public var rowsOfOtherApps: Int
    /// Their SKUs, sorted.
    public var skusOfOtherApps: [String]

    public init(
        timeZone: String, comparedDays: [Int], lines: [SalesReconciliationLine], rowsOfOtherApps: Int = 0,
        skusOfOtherApps: [String] = []
    ) {
        self.timeZone = timeZone
        self.comparedDays = comparedDays
        self.lines = lines
        self.rowsOfOtherApps = rowsOfOtherApps
        self.skusOfOtherApps = skusOfOtherApps
    }

    /// The compared days as ranges of consecutive days: `2026-03-01 to 2026-03-31, 2026-04-03`.
    public var comparedDaysText: String {
        var ranges: [(Int, Int)] = []
        for day in comparedDays {
            if let last = ranges.last, last.1 + 1 == day {
                ranges[ranges.count - 1].1 = day
            } else {
                ranges.append((day, day))
            }
        }
        return ranges.map { first, last in
            first == last ? Timestamp.dayString(first) : "\(Timestamp.dayString(first)) to \(Timestamp.dayString(last))"
        }.joined(separator: ", ")
    }
}
