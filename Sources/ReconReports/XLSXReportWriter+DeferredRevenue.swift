import Foundation
import ReconFindings
import ReconModel

/// The `Deferred Revenue` sheet (CONTRACT §5, §5.1): a statement read top to bottom, like `Month Close`: the
/// roll-forward by month and currency, the months restated since the previous report, then one waterfall per
/// currency: rows the month billed, columns the months recognized, then recognized to date, refunded and remaining,
/// so each row reads billed = recognized to date + refunded + remaining.
///
/// It holds several tables, so no header is frozen and no filter set (a filter spans to the sheet's last row, and
/// would hide the waterfall's rows); `deferred_revenue.csv` has the lines per product.
extension XLSXReportWriter {
    package static let deferredRevenueSheet = "Deferred Revenue"

    package static func deferredRevenue(_ report: DeferredRevenueReport, timeZone: String) -> XLSXSheet {
        let basis = report.basis == .proceeds ? "proceeds" : "customer price"
        var rows = [
            XLSXRow(
                [
                    .text(
                        "Deferred revenue, recognized as the service is delivered (\(basis); calendar months in "
                            + "\(timeZone))")
                ], style: .title)
        ]
        let header = [
            "Month", "Currency", "Opening deferred", "Billings", "Recognized", "Refunds released", "Refunds reversed",
            "Closing deferred", "Net revenue",
        ]
        rows.append(XLSXRow(header.map { .text($0) }, style: .header))
        let months = report.byMonthAndCurrency
        for row in months {
            func m(_ milli: Int64) -> XLSXCell { .amount(Money(milliunits: milli, currency: row.currency)) }
            rows.append(
                XLSXRow([
                    .text(CalendarMonths.text(row.month)), .text(row.currency), m(row.opening), m(row.billings),
                    m(row.recognized), m(row.refundsReleased), m(row.refundsReversed), m(row.closing),
                    m(row.netRevenue),
                ]))
        }
        if months.isEmpty { rows.append(XLSXRow([.text("No counted sale up to the as-of")])) }
        rows += contracted(report.contractedNotYetBilled)
        rows += restated(report.restatements)
        rows += waterfalls(report)
        return XLSXSheet(name: deferredRevenueSheet, rows: rows, columnWidths: [14])
    }

    /// Below the roll-forward, per currency, what 12-month commitments still bind customers to pay (CONTRACT §7): the
    /// remaining performance obligations a finance team discloses; nothing when no commitment is active.
    private static func contracted(_ unbilled: [String: Int64]) -> [XLSXRow] {
        unbilled.keys.sorted().compactMap { currency in
            guard let milli = unbilled[currency] else { return nil }
            return XLSXRow([
                .text("Contracted, not yet billed"), .text(currency), .empty, .empty, .empty, .empty, .empty,
                .amount(Money(milliunits: milli, currency: currency)),
            ])
        }
    }

    /// The months the previous report closed that this one shows differently (Apple's later word), each line before
    /// and after; nothing when none.
    private static func restated(_ restatements: [DeferredRevenueRestatement]) -> [XLSXRow] {
        guard !restatements.isEmpty else { return [] }
        var rows = [XLSXRow([]), XLSXRow([.text("Months restated since the previous report")], style: .title)]
        rows.append(
            XLSXRow(
                [
                    "Month", "Currency", "Product", "Previous net revenue", "Net revenue", "Previous closing deferred",
                    "Closing deferred",
                ].map { .text($0) }, style: .header))
        for item in restatements {
            func m(_ milli: Int64?) -> XLSXCell { .amount(Money(milliunits: milli ?? 0, currency: item.currency)) }
            rows.append(
                XLSXRow([
                    .text(CalendarMonths.text(item.month)), .text(item.currency), .text(item.productID),
                    m(item.previous?.netRevenue), m(item.current?.netRevenue), m(item.previous?.closing),
                    m(item.current?.closing),
                ]))
        }
        return rows
    }

    /// The most months a waterfall shows one by one.
    package static let waterfallMonths = 120

    /// One block per currency: the months billed down, the months recognized across (net of reversals).
    private static func waterfalls(_ report: DeferredRevenueReport) -> [XLSXRow] {
        guard let lastMonth = report.lastMonth else { return [] }
        var rows: [XLSXRow] = []
        let byCurrency = Dictionary(grouping: report.waterfall, by: \.currency)
        for currency in byCurrency.keys.sorted() {
            let lines = (byCurrency[currency] ?? []).sorted { $0.billedMonth < $1.billedMonth }
            guard let first = lines.first?.billedMonth else { continue }
            // At most ten years of columns (a sheet holds 16,384): months before them add up in one column.
            let shownFrom = max(first, lastMonth - waterfallMonths + 1)
            let months = Array(shownFrom...max(shownFrom, lastMonth))
            let earlier = first < shownFrom ? "before \(CalendarMonths.text(shownFrom))" : nil
            rows.append(XLSXRow([]))
            rows.append(
                XLSXRow(
                    [
                        .text(
                            "Waterfall, \(currency): net revenue by month billed (rows) and month recognized (columns)")
                    ], style: .title))
            let header =
                ["Month billed", "Billed"] + (earlier.map { [$0] } ?? []) + months.map(CalendarMonths.text)
                + ["Recognized to date", "Refunded", "Remaining"]
            rows.append(XLSXRow(header.map { .text($0) }, style: .header))
            func m(_ milli: Int64) -> XLSXCell { .amount(Money(milliunits: milli, currency: currency)) }
            let columns = months.count + (earlier == nil ? 0 : 1)
            var totals = [Int64](repeating: 0, count: columns + 4)
            for line in lines {
                var byMonth: [Int64?] = months.map { month in
                    month < line.billedMonth ? nil : line.recognized[month] ?? 0
                }
                if earlier != nil {
                    let before = line.recognized.filter { $0.key < shownFrom }.values.reduce(0, Money.sum)
                    byMonth.insert(line.billedMonth < shownFrom ? before : nil, at: 0)
                }
                let values =
                    [line.billed] + byMonth.map { $0 ?? 0 } + [line.recognizedToDate, line.refunded, line.remaining]
                for (index, value) in values.enumerated() { totals[index] = Money.sum(totals[index], value) }
                rows.append(
                    XLSXRow(
                        [.text(CalendarMonths.text(line.billedMonth)), m(line.billed)]
                            + byMonth.map { $0.map(m) ?? .empty }
                            + [m(line.recognizedToDate), m(line.refunded), m(line.remaining)]))
            }
            rows.append(XLSXRow([.text("Total")] + totals.map(m), style: .total))
        }
        return rows
    }
}
