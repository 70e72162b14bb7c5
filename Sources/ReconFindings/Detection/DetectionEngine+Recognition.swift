import Foundation
import ReconModel
import ReconStorage

extension DetectionEngine {
    /// Revenue recognition (CONTRACT §5.1) over every counted sale in the store at the as-of, and every sale's whole
    /// life by month, to keep.
    ///
    /// The judged sales gave their lives, and the as-of's month of those in flight (``DetectionTotals``). A report that
    /// judged every transaction has them all. An incremental one starts from the kept lives, takes away those of the
    /// sales it judged again as they were, adds their new ones, and corrects the as-of's month of the kept sales still
    /// in flight: it reads the night's transactions and the subscriptions still being delivered, never the ledger.
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
            try revenueRecords.forEachInFlightSale(since: roll.asOf) { roll.addInFlight($0) }
        }
        for (key, cell) in totals.lifetimes { months[key, default: RecognitionMonthSums()].add(cell) }
        months = months.filter { !$0.value.isEmpty }
        roll.addLifetimes(months)
        return (roll, months)
    }
}
