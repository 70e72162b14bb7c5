import Foundation
import ReconFindings
import ReconModel

/// What the deferred revenue files and sheet show (CONTRACT §5 `deferred_revenue.csv`, `revenue_schedule.csv`, §5.1).
///
/// The roll-forward by month, product and currency, and the waterfall. Each counted sale's schedule is read from the
/// store as `revenue_schedule.csv` is written (a row per sale, never all in memory).
public struct DeferredRevenueReport: Sendable {
    public var basis: RecognitionBasis = .proceeds
    /// The as-of's month, the last one reported (``CalendarMonths``); nil when nothing was recognized.
    public var lastMonth: Int?
    public var rows: [DeferredRevenueRollForward.Row] = []
    public var waterfall: [DeferredRevenueRollForward.WaterfallRow] = []
    /// The instant the schedule's totals are as of.
    public var asOf: Int64 = 0
    /// Where the schedule's sales are: every sale the report judged (true), the kept ones with those judged again
    /// (false); nil: no sale (the schedule is its header).
    public var scheduleJudgedEverything: Bool?
    /// The months the previous report closed that this one restates.
    public var restatements: [DeferredRevenueRestatement] = []
    /// "Contracted, not yet billed" per currency: the sum of the active commitments' `unbilled` (CONTRACT §7).
    public var contractedNotYetBilled: [String: Int64] = [:]

    public init() {}

    public init(_ roll: DeferredRevenueRollForward, basis: RecognitionBasis, judgedEverything: Bool) {
        self.basis = basis
        lastMonth = roll.lastMonth
        rows = roll.rows()
        waterfall = roll.waterfall()
        asOf = roll.asOf
        scheduleJudgedEverything = judgedEverything
    }

    /// The roll-forward summed over products: by month, then currency.
    public var byMonthAndCurrency: [DeferredRevenueRollForward.Row] {
        var sums: [MonthCurrency: DeferredRevenueRollForward.Row] = [:]
        for row in rows {
            let key = MonthCurrency(month: row.month, currency: row.currency)
            var sum =
                sums[key]
                ?? DeferredRevenueRollForward.Row(
                    month: row.month, productID: "", currency: row.currency, opening: 0, billings: 0, recognized: 0,
                    refundsReleased: 0, refundsReversed: 0)
            sum.opening = Money.sum(sum.opening, row.opening)
            sum.billings = Money.sum(sum.billings, row.billings)
            sum.recognized = Money.sum(sum.recognized, row.recognized)
            sum.refundsReleased = Money.sum(sum.refundsReleased, row.refundsReleased)
            sum.refundsReversed = Money.sum(sum.refundsReversed, row.refundsReversed)
            sums[key] = sum
        }
        return sums.keys.sorted().compactMap { sums[$0] }
    }

    private struct MonthCurrency: Hashable, Comparable {
        var month: Int
        var currency: String
        static func < (a: MonthCurrency, b: MonthCurrency) -> Bool { (a.month, a.currency) < (b.month, b.currency) }
    }
}
