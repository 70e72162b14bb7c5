import Foundation
import ReconModel

/// The deferred revenue roll-forward (CONTRACT §5 `deferred_revenue.csv`, §5.1): per calendar month, product and
/// currency, what was billed, recognized, released and reversed, from the first month with a sale to the as-of's
/// month; the waterfall of billed months by recognized months; and each sale's schedule to the as-of
/// (`revenue_schedule.csv`).
///
/// Each sale adds the differences of its cumulative totals (``RecognitionSchedule/totals(_:by:)``) between month
/// boundaries, so a sale's months add up to its amount exactly and every month's roll-forward foots.
public struct DeferredRevenueRollForward {
    /// One line of `deferred_revenue.csv`.
    public typealias Row = DeferredRevenueRow

    /// One row of the waterfall: the sales billed in one month and currency, by the month their revenue was
    /// recognized (net of reversals).
    public struct WaterfallRow: Sendable, Hashable {
        public var currency: String
        public var billedMonth: Int
        public var billed: Int64
        /// Net revenue recognized per month.
        public var recognized: [Int: Int64]
        /// Given back to customers (released plus reversed), to the as-of.
        public var refunded: Int64
        /// Still deferred at the as-of.
        public var remaining: Int64
        /// Net revenue recognized to the as-of.
        public var recognizedToDate: Int64 { recognized.keys.sorted().reduce(0) { Money.sum($0, recognized[$1] ?? 0) } }
    }

    /// One line of `revenue_schedule.csv`: a sale and its totals at the as-of.
    public struct ScheduleRow: Sendable, Hashable {
        public var sale: RecognitionSale
        public var totals: RecognitionSchedule.Totals
    }

    private struct Key: Hashable {
        var month: Int
        var productID: String
        var currency: String
    }

    private struct Sums {
        var billings: Int64 = 0
        var recognized: Int64 = 0
        var released: Int64 = 0
        var reversed: Int64 = 0
    }

    private struct BilledKey: Hashable, Comparable {
        var currency: String
        var month: Int
        static func < (a: BilledKey, b: BilledKey) -> Bool { (a.currency, a.month) < (b.currency, b.month) }
    }

    public let asOf: Int64
    public private(set) var months: CalendarMonths
    private var sums: [Key: Sums] = [:]
    private var waterfallRows: [BilledKey: WaterfallRow] = [:]
    /// The sales added, in the order added.
    public private(set) var schedule: [ScheduleRow] = []
    /// Whether ``schedule`` is in ``scheduleRows()``'s order.
    private var scheduleIsSorted = true

    /// - Parameters:
    ///   - timeZone: decides the calendar month of every instant (`--timezone`).
    ///   - asOf: the cut-off: what happened at or after it does not enter.
    public init(timeZone: TimeZone, asOf: Int64) {
        self.asOf = asOf
        months = CalendarMonths(timeZone: timeZone)
    }

    /// The as-of's month: the last month reported.
    public var lastMonth: Int { months.month(of: asOf) }

    /// Adds one counted sale; one purchased at or after the as-of is not in this report.
    public mutating func add(_ sale: RecognitionSale) {
        guard sale.start < asOf else { return }
        let billedMonth = months.month(of: sale.start)
        let currency = sale.amount.currency
        let last = sale.lastChange
        var previous = RecognitionSchedule.Totals()
        var month = billedMonth
        var line =
            waterfallRows[BilledKey(currency: currency, month: billedMonth)]
            ?? WaterfallRow(
                currency: currency, billedMonth: billedMonth, billed: 0, recognized: [:], refunded: 0, remaining: 0)
        while months.start(of: month) < asOf {
            let next = months.start(of: month + 1)
            let boundary = min(next, asOf)
            let totals = RecognitionSchedule.totals(sale, by: boundary)
            let delta = totals.minus(previous)
            previous = totals
            if !delta.isZero {
                let key = Key(month: month, productID: sale.productID, currency: currency)
                var sum = sums[key] ?? Sums()
                sum.billings = Money.sum(sum.billings, delta.billed)
                sum.recognized = Money.sum(sum.recognized, delta.recognized)
                sum.released = Money.sum(sum.released, delta.released)
                sum.reversed = Money.sum(sum.reversed, delta.reversed)
                sums[key] = sum
                let net = Money.difference(delta.recognized, delta.reversed)
                if net != 0 { line.recognized[month] = Money.sum(line.recognized[month] ?? 0, net) }
            }
            if boundary > last { break }
            month += 1
        }
        let totals = RecognitionSchedule.totals(sale, by: asOf)
        line.billed = Money.sum(line.billed, totals.billed)
        line.refunded = Money.sum(line.refunded, totals.refunded)
        line.remaining = Money.sum(line.remaining, totals.deferred)
        waterfallRows[BilledKey(currency: currency, month: billedMonth)] = line
        let row = ScheduleRow(sale: sale, totals: totals)
        if let last = schedule.last, Self.scheduleOrder(row, last) { scheduleIsSorted = false }
        schedule.append(row)
    }

    /// The roll-forward, by month, product and currency: every month from a product's first sale to the as-of's
    /// month with a non-zero value.
    public func rows() -> [Row] {
        var firstMonth: [ProductCurrency: Int] = [:]
        for key in sums.keys {
            let line = ProductCurrency(productID: key.productID, currency: key.currency)
            firstMonth[line] = min(firstMonth[line] ?? key.month, key.month)
        }
        var rows: [Row] = []
        for line in firstMonth.keys.sorted() {
            guard let first = firstMonth[line] else { continue }
            var opening: Int64 = 0
            for month in first...max(first, lastMonth) {
                let sum = sums[Key(month: month, productID: line.productID, currency: line.currency)] ?? Sums()
                let row = Row(
                    month: month, productID: line.productID, currency: line.currency, opening: opening,
                    billings: sum.billings, recognized: sum.recognized, refundsReleased: sum.released,
                    refundsReversed: sum.reversed)
                opening = row.closing
                let values = [row.opening, row.billings, row.recognized, row.refundsReleased, row.refundsReversed]
                if values.contains(where: { $0 != 0 }) || row.closing != 0 { rows.append(row) }
            }
        }
        return rows.sorted { ($0.month, $0.productID, $0.currency) < ($1.month, $1.productID, $1.currency) }
    }

    /// The waterfall, by currency and billed month.
    public func waterfall() -> [WaterfallRow] {
        waterfallRows.keys.sorted().compactMap { waterfallRows[$0] }
    }

    /// The schedule, by transaction id (then the amount's currency, for a stable order).
    ///
    /// Sales arrive in the ledger's transaction id order, so this is the schedule as added, shared, not a copy (a
    /// row per counted sale); only sales added out of order are sorted.
    public func scheduleRows() -> [ScheduleRow] {
        scheduleIsSorted ? schedule : schedule.sorted(by: Self.scheduleOrder)
    }

    private static func scheduleOrder(_ a: ScheduleRow, _ b: ScheduleRow) -> Bool {
        (a.sale.transactionID, a.sale.amount.currency) < (b.sale.transactionID, b.sale.amount.currency)
    }

    private struct ProductCurrency: Hashable, Comparable {
        var productID: String
        var currency: String
        static func < (a: ProductCurrency, b: ProductCurrency) -> Bool {
            (a.productID, a.currency) < (b.productID, b.currency)
        }
    }
}
