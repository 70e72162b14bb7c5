import AppleData
import ReconModel

/// The deferred revenue roll-forward the latest report showed (`deferred_revenue.csv`): what the next report compares
/// its closed months with, so that a restated month is listed, never silent (CONTRACT §5.1).
extension SQLRevenue {
    /// The lines the latest report showed and the month of its as-of; nil before the first report.
    package func deferredRevenueShown() throws(StoreError) -> (rows: [DeferredRevenueRow], lastMonth: Int)? {
        let meta = try db.prepare("SELECT last_month FROM deferred_revenue_shown_report WHERE id = 1")
        guard try meta.step() else { return nil }
        let lastMonth = Int(meta.int64(0))
        let stmt = try db.prepare(
            """
            SELECT month, product_id, currency, opening_milli, billings_milli, recognized_milli, released_milli,
                reversed_milli
            FROM deferred_revenue_shown ORDER BY month, product_id, currency
            """)
        var rows: [DeferredRevenueRow] = []
        while try stmt.step() {
            rows.append(
                DeferredRevenueRow(
                    month: Int(stmt.int64(0)), productID: stmt.text(1), currency: stmt.text(2),
                    opening: stmt.int64(3), billings: stmt.int64(4), recognized: stmt.int64(5),
                    refundsReleased: stmt.int64(6), refundsReversed: stmt.int64(7)))
        }
        return (rows, lastMonth)
    }

    /// Makes `rows` the lines the latest report showed, as of a time in `lastMonth`.
    package func keepDeferredRevenueShown(_ rows: [DeferredRevenueRow], lastMonth: Int) throws {
        try write {
            try db.execute("DELETE FROM deferred_revenue_shown")
            let insert = try db.prepare(
                RowInsert(
                    into: "deferred_revenue_shown",
                    [
                        "month", "product_id", "currency", "opening_milli", "billings_milli", "recognized_milli",
                        "released_milli", "reversed_milli",
                    ]))
            for row in rows {
                try insert.run([
                    .integer(Int64(row.month)), .text(row.productID), .text(row.currency), .integer(row.opening),
                    .integer(row.billings), .integer(row.recognized), .integer(row.refundsReleased),
                    .integer(row.refundsReversed),
                ])
            }
            try db.prepare(
                """
                INSERT INTO deferred_revenue_shown_report (id, last_month) VALUES (1, $1)
                ON CONFLICT (id) DO UPDATE SET last_month = $1
                """
            ).run([.integer(Int64(lastMonth))])
        }
    }
}
