import AppleData
import ReconModel
import ReconStorage

extension DetectionEngine {
    /// Adds to Apple's reports' reconciliations what an incremental report does not work out anew: the kept events
    /// (``LedgerEvent``) of the transactions it did not judge again, on the compared days and in the compared fiscal
    /// months, and which of Apple's products the ledger sells.
    package func addKeptEvents(to totals: DetectionTotals, asOf: Int64) throws {
        for days in Self.runs(of: totals.sales.comparedDays) {
            try ledger.forEachKeptLedgerEvent(from: days.lowerBound, through: days.upperBound) { totals.sales.add($0) }
        }
        for period in totals.finance?.periods ?? [] {
            try ledger.forEachKeptLedgerEvent(from: period.start, through: period.end) { totals.finance?.add($0) }
        }
        let products = try ledger.ledgerProducts(
            among: totals.sales.appleProducts.union(totals.finance?.appleProducts ?? []), asOf: asOf)
        totals.sales.add([], products: products)
        totals.finance?.add([], products: products)
    }

    /// Ascending `days` as runs of consecutive days.
    package static func runs(of days: [Int]) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        for day in days {
            if let last = runs.last, last.upperBound + 1 == day {
                runs[runs.count - 1] = last.lowerBound...day
            } else {
                runs.append(day...day)
            }
        }
        return runs
    }
}
