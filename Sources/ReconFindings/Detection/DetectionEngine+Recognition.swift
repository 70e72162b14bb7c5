import Foundation
import ReconModel
import ReconStorage

extension DetectionEngine {
    /// Revenue recognition (CONTRACT §5.1) over every counted sale in the store at the as-of, and every sale's whole
    /// life by month, to keep.
    ///
    /// The judged sales gave their as-of's month and their lives (``DetectionTotals``). A report that judged every
    /// transaction has them all. An incremental one starts from the kept lives, takes away those of the sales it
    /// judged again as they were, adds their new ones, and adds the as-of's month of the kept sales still active in
    /// it: what it reads is the night's transactions and the sales active this month, never the whole ledger.
    func recognition(_ totals: DetectionTotals, kept: Bool) throws
        -> (DeferredRevenueRollForward, [RecognitionMonth: RecognitionMonthSums])
    {
        var roll = totals.deferred
        var months: [RecognitionMonth: RecognitionMonthSums] = [:]
        if kept {
            months = try revenueRecords.recognitionMonths()
            try revenueRecords.forEachReplacedSale { old in
                for (key, cell) in roll.lifetime(of: old) {
                    months[key, default: RecognitionMonthSums()].add(cell, sign: -1)
                }
            }
            try revenueRecords.forEachActiveSale(since: roll.openMonthStart()) { roll.addOpenMonth($0) }
        }
        for (key, cell) in totals.lifetimes { months[key, default: RecognitionMonthSums()].add(cell) }
        months = months.filter { !$0.value.isEmpty }
        roll.addClosedMonths(months)
        return (roll, months)
    }
}
