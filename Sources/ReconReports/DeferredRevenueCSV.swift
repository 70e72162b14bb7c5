import ReconFindings
import ReconModel

/// `deferred_revenue.csv` and `revenue_schedule.csv` (CONTRACT §5, §5.1).
extension CSVReports {
    public static let deferredRevenueHeader = [
        "month", "product_id", "currency", "opening_deferred", "billings", "recognized", "refunds_released",
        "refunds_reversed", "closing_deferred", "net_revenue",
    ]

    public static let revenueScheduleHeader = [
        "transaction_id", "original_transaction_id", "user_id", "product_id", "currency", "amount", "service_start",
        "service_end", "recognized", "refunded", "deferred", "period_source",
    ]

    /// The roll-forward: one row per month, product and currency with a non-zero value, by month, product,
    /// currency.
    public static func deferredRevenue(_ report: DeferredRevenueReport) -> CSVTable {
        CSVTable(
            header: deferredRevenueHeader,
            rows: report.rows.map { row in
                func money(_ milli: Int64) -> CSVCell { .money(milli, row.currency) }
                return [
                    .text(CalendarMonths.text(row.month)), .text(row.productID), .text(row.currency),
                    money(row.opening),
                    money(row.billings), money(row.recognized), money(row.refundsReleased), money(row.refundsReversed),
                    money(row.closing), money(row.netRevenue),
                ]
            })
    }

    /// Writes the schedule to `path`: one row per counted transaction of `sales` (which gives them in transaction id
    /// order) purchased before the report's as-of, each as of it, row by row (never the whole file in memory).
    ///
    /// `recognized` is net of reversals, so `amount = recognized + refunded + deferred` on every row; `service_end`
    /// is empty for a sale recognized at its purchase.
    @discardableResult
    package static func writeRevenueSchedule(
        _ report: DeferredRevenueReport, to path: String,
        sales: (_ each: (RecognitionSale) throws -> Void) throws -> Void
    ) throws -> RevenueScheduleWritten {
        let file = try CSVFile(path: path, header: revenueScheduleHeader)
        let asOf = report.asOf
        // A sale purchased at or after the as-of is not in this report (a month-end close of a store that holds later
        // purchases).
        var line = RevenueScheduleLine()
        var rendered = 0
        try sales { sale in
            guard sale.start < asOf else { return }
            let totals = RecognitionSchedule.totals(sale, by: asOf)
            try file.append { line.append(sale, totals: totals, to: &$0) }
            rendered += 1
        }
        try file.commit()
        return RevenueScheduleWritten(bytes: file.bytesWritten, crc32: file.crc32, rendered: rendered)
    }

    /// One sale's line of `revenue_schedule.csv` as cells: what ``RevenueScheduleLine`` writes byte by byte.
    static func scheduleRow(_ item: DeferredRevenueRollForward.ScheduleRow) -> [CSVCell] {
        let sale = item.sale
        func money(_ milli: Int64) -> CSVCell { .money(milli, sale.amount.currency) }
        let end = sale.end.flatMap { $0 > sale.start ? Timestamp.iso($0) : nil } ?? ""
        return [
            .text(sale.transactionID), .text(sale.originalTransactionID), .text(sale.userID),
            .text(sale.productID), .text(sale.amount.currency), money(sale.amount.milliunits),
            .text(Timestamp.iso(sale.start)), .text(end), money(item.totals.netRecognized),
            money(item.totals.refunded), money(item.totals.deferred), .text(sale.periodSource.rawValue),
        ]
    }
}
