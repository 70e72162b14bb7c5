import Foundation
import ReconModel

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
