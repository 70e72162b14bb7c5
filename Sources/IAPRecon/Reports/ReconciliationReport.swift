/// Everything the report files show, gathered once from the store.
public struct ReconciliationReport: Sendable {
    public var asOf: Int64
    public var timeZone: String
    public var revenue: [RevenueRow]
    /// This run's findings, in report order, with their history.
    public var findings: [FindingHistory]
    /// Findings open before this run and no longer found.
    public var resolved: [FindingHistory]
    public var rejected: [RejectedRow]
    /// Pending ledger rows (oldest first, capped at ``pendingLimit``).
    public var pending: [LedgerTransaction]
    public var pendingTotal: Int
    public var recoveredFromSandbox: [String: Int64]
    public var excludedAsSandbox: [String: Int64]
    public var unpricedTransactions: Int
    public var duplicateRowsIgnored: Int
    public var run: RunRecord
    /// Changes to days the previous report from this store already showed.
    public var revenueChanges: [RevenueChange] = []
    /// What this report shows per transaction: the next report's baseline, stored once written.
    public var revenueShown: [RevenueContribution] = []

    /// Excel's row limit leaves room for a header.
    public static let pendingLimit = 1_000_000

    /// Revenue totals per currency: (gross, refunds, net, proceeds).
    public var totalsByCurrency: [(currency: String, units: Int64, gross: Int64, refunds: Int64, net: Int64, proceeds: Int64)] {
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
