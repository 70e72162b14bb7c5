import Foundation
import ReconModel

/// The deferred revenue roll-forward (CONTRACT §5 `deferred_revenue.csv`, §5.1): per calendar month, product and
/// currency, what was billed, recognized, released and reversed, from the first month with a sale to the as-of's
/// month; and the waterfall of billed months by recognized months.
///
/// Each sale adds the differences of its cumulative totals (``RecognitionSchedule/totals(_:by:)``) between month
/// boundaries, so a sale's months add up to its amount exactly and every month's roll-forward foots. Both come from
/// one set of sums by month, billed month, product and currency (``RecognitionMonth``).
///
/// A report builds it in one of two ways, with the same result:
/// - it adds every sale (``add(_:)``);
/// - or it adds the sums of the sales' whole lives (``lifetime(of:months:)``, ``addLifetimes(_:)``) and corrects the
///   as-of's month for the sales still in flight at the as-of (``addInFlight(_:)``): a sale's share of a month
///   depends on the as-of only while the sale is in flight, so the store keeps those sums, a night changes only its
///   own sales' shares, and works out sale by sale only the subscriptions still being delivered.
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

        /// `sale` as of `asOf`.
        public init(_ sale: RecognitionSale, asOf: Int64) {
            self.sale = sale
            totals = RecognitionSchedule.totals(sale, by: asOf)
        }
    }

    public let asOf: Int64
    public private(set) var months: CalendarMonths
    /// The sums of the months up to the as-of's.
    public private(set) var sums: [RecognitionMonth: RecognitionMonthSums] = [:]

    /// - Parameters:
    ///   - timeZone: decides the calendar month of every instant (`--timezone`).
    ///   - asOf: the cut-off: what happened at or after it does not enter.
    public init(timeZone: TimeZone, asOf: Int64) {
        self.asOf = asOf
        months = CalendarMonths(timeZone: timeZone)
        lastMonth = months.month(of: asOf)
    }

    /// The as-of's month: the last month reported.
    public let lastMonth: Int

    /// Adds one counted sale; one purchased at or after the as-of is not in this report.
    public mutating func add(_ sale: RecognitionSale) {
        guard sale.start < asOf else { return }
        for (key, cell) in Self.walk(sale, months: &months, until: asOf) {
            sums[key, default: RecognitionMonthSums()].add(cell)
        }
    }

    /// Corrects the as-of's month for a sale still in flight at the as-of (its last change at or after it).
    ///
    /// ``addLifetimes(_:)`` takes the month from the sale's whole life; this puts in what it did in that month by the
    /// as-of instead of by the month's end (nothing, when it was purchased at or after the as-of). A sale whose last
    /// change came before the as-of did in that month what its life says, and needs no correction.
    public mutating func addInFlight(_ sale: RecognitionSale) {
        guard sale.lastChange >= asOf else { return }
        let open = lastMonth
        let openStart = months.start(of: open)
        let billedMonth = months.month(of: sale.start)
        let key = RecognitionMonth(
            month: open, billedMonth: billedMonth, productID: sale.productID, currency: sale.amount.currency)
        var cell = RecognitionMonthSums()
        if sale.start < asOf {
            let delta = RecognitionSchedule.totals(sale, by: asOf).minus(
                RecognitionSchedule.totals(sale, by: openStart))
            cell = RecognitionMonthSums(
                billings: delta.billed, recognized: delta.recognized, released: delta.released,
                reversed: delta.reversed)
            if billedMonth == open { cell.sales = 1 }
        }
        // Its whole life's share of the month: by the month's end (the sale is in flight, so its walk reaches it).
        if billedMonth <= open {
            let end = months.start(of: open + 1)
            let whole = RecognitionSchedule.totals(sale, by: end).minus(RecognitionSchedule.totals(sale, by: openStart))
            var life = RecognitionMonthSums(
                billings: whole.billed, recognized: whole.recognized, released: whole.released,
                reversed: whole.reversed)
            if billedMonth == open { life.sales = 1 }
            cell.add(life, sign: -1)
        }
        guard !cell.isEmpty else { return }
        sums[key, default: RecognitionMonthSums()].add(cell)
    }

    /// Adds the months up to the as-of's of `lives`, the sums of sales' whole lives (``lifetime(of:months:)``); the
    /// sales in flight at the as-of are corrected by ``addInFlight(_:)``.
    public mutating func addLifetimes(_ lives: [RecognitionMonth: RecognitionMonthSums]) {
        let open = lastMonth
        for (key, cell) in lives where key.month <= open { sums[key, default: RecognitionMonthSums()].add(cell) }
    }

    /// ``lifetime(of:months:)`` with this roll-forward's calendar.
    public mutating func lifetime(of sale: RecognitionSale) -> [(RecognitionMonth, RecognitionMonthSums)] {
        Self.lifetime(of: sale, months: &months)
    }

    /// The whole life of `sale`, month by month, from its billed month to its last change: what the store keeps of
    /// it, whatever the as-of.
    public static func lifetime(of sale: RecognitionSale, months: inout CalendarMonths)
        -> [(RecognitionMonth, RecognitionMonthSums)]
    {
        walk(sale, months: &months, until: nil)
    }

    /// Each month's differences of the sale's totals, from its billed month until `cutoff` (exclusive) or, with none,
    /// past its last change.
    private static func walk(_ sale: RecognitionSale, months: inout CalendarMonths, until cutoff: Int64?)
        -> [(RecognitionMonth, RecognitionMonthSums)]
    {
        var cells: [(RecognitionMonth, RecognitionMonthSums)] = []
        let billedMonth = months.month(of: sale.start)
        let last = sale.lastChange
        var previous = RecognitionSchedule.Totals()
        var month = billedMonth
        while cutoff.map({ months.start(of: month) < $0 }) ?? true {
            let next = months.start(of: month + 1)
            let boundary = cutoff.map { min(next, $0) } ?? next
            let totals = RecognitionSchedule.totals(sale, by: boundary)
            let delta = totals.minus(previous)
            previous = totals
            var cell = RecognitionMonthSums(
                billings: delta.billed, recognized: delta.recognized, released: delta.released,
                reversed: delta.reversed)
            if month == billedMonth { cell.sales = 1 }
            if !cell.isEmpty {
                let key = RecognitionMonth(
                    month: month, billedMonth: billedMonth, productID: sale.productID, currency: sale.amount.currency)
                cells.append((key, cell))
            }
            if boundary > last { break }
            month += 1
        }
        return cells
    }

    /// The roll-forward, by month, product and currency: every month from a product's first sale to the as-of's
    /// month with a non-zero value.
    public func rows() -> [Row] {
        var byLine: [LineMonth: RecognitionMonthSums] = [:]
        for (key, cell) in sums {
            let line = ProductCurrency(productID: key.productID, currency: key.currency)
            byLine[LineMonth(line: line, month: key.month), default: RecognitionMonthSums()].add(cell)
        }
        var firstMonth: [ProductCurrency: Int] = [:]
        for key in byLine.keys { firstMonth[key.line] = min(firstMonth[key.line] ?? key.month, key.month) }
        var rows: [Row] = []
        for line in firstMonth.keys.sorted() {
            guard let first = firstMonth[line] else { continue }
            var opening: Int64 = 0
            for month in first...max(first, lastMonth) {
                let sum = byLine[LineMonth(line: line, month: month)] ?? RecognitionMonthSums()
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
        var lines: [BilledKey: WaterfallRow] = [:]
        for (key, cell) in sums where !cell.isEmpty {
            let billed = BilledKey(currency: key.currency, month: key.billedMonth)
            var line =
                lines[billed]
                ?? WaterfallRow(
                    currency: key.currency, billedMonth: key.billedMonth, billed: 0, recognized: [:], refunded: 0,
                    remaining: 0)
            line.billed = Money.sum(line.billed, cell.billings)
            let net = Money.difference(cell.recognized, cell.reversed)
            if net != 0 { line.recognized[key.month] = Money.sum(line.recognized[key.month] ?? 0, net) }
            line.refunded = Money.sum(line.refunded, Money.sum(cell.released, cell.reversed))
            line.remaining = Money.sum(
                line.remaining, Money.difference(Money.difference(cell.billings, cell.recognized), cell.released))
            lines[billed] = line
        }
        return lines.keys.sorted().compactMap { lines[$0] }
    }

    private struct BilledKey: Hashable, Comparable {
        var currency: String
        var month: Int
        static func < (a: BilledKey, b: BilledKey) -> Bool { (a.currency, a.month) < (b.currency, b.month) }
    }

    private struct ProductCurrency: Hashable, Comparable {
        var productID: String
        var currency: String
        static func < (a: ProductCurrency, b: ProductCurrency) -> Bool {
            (a.productID, a.currency) < (b.productID, b.currency)
        }
    }

    private struct LineMonth: Hashable {
        var line: ProductCurrency
        var month: Int
    }
}
