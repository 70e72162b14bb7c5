import ReconModel

/// A month an earlier report closed whose roll-forward a later report shows differently (CONTRACT §5.1).
///
/// Apple's later word (a refund, a revocation, a reversal dated in that month) reached the store since. Listed, never
/// silent, as `revenue_changes.csv` lists the days.
public struct DeferredRevenueRestatement: Sendable, Hashable {
    public var month: Int
    public var productID: String
    public var currency: String
    /// The line as the earlier report showed it; nil when it showed none.
    public var previous: DeferredRevenueRow?
    /// The line as this report shows it; nil when it shows none.
    public var current: DeferredRevenueRow?

    /// `2026-11 pro.yearly USD: net revenue 10.00 → 8.00, closing deferred 30.00 → 0.00`.
    public var text: String {
        func money(_ milli: Int64) -> String { Money(milliunits: milli, currency: currency).formatted }
        let before = previous.map { ($0.netRevenue, $0.closing) } ?? (0, 0)
        let after = current.map { ($0.netRevenue, $0.closing) } ?? (0, 0)
        return "\(CalendarMonths.text(month)) \(productID) \(currency): net revenue \(money(before.0)) → "
            + "\(money(after.0)), closing deferred \(money(before.1)) → \(money(after.1))"
    }

    /// The months both reports closed (before the earlier report's as-of month) whose lines differ, by month,
    /// product, currency; none when this report is not the later one.
    ///
    /// - Parameters:
    ///   - previous: the lines the earlier report showed, and its as-of's month.
    ///   - current: this report's lines, and its as-of's month.
    public static func between(
        previous: (rows: [DeferredRevenueRow], lastMonth: Int), current: (rows: [DeferredRevenueRow], lastMonth: Int)
    ) -> [DeferredRevenueRestatement] {
        guard current.lastMonth >= previous.lastMonth else { return [] }
        struct Key: Hashable, Comparable {
            var month: Int
            var productID: String
            var currency: String
            static func < (a: Key, b: Key) -> Bool {
                (a.month, a.productID, a.currency) < (b.month, b.productID, b.currency)
            }
        }
        func closed(_ rows: [DeferredRevenueRow]) -> [Key: DeferredRevenueRow] {
            var lines: [Key: DeferredRevenueRow] = [:]
            for row in rows where row.month < previous.lastMonth {
                lines[Key(month: row.month, productID: row.productID, currency: row.currency)] = row
            }
            return lines
        }
        let before = closed(previous.rows)
        let after = closed(current.rows)
        return Set(before.keys).union(after.keys).sorted().compactMap { key in
            guard before[key] != after[key] else { return nil }
            return DeferredRevenueRestatement(
                month: key.month, productID: key.productID, currency: key.currency, previous: before[key],
                current: after[key])
        }
    }
}
