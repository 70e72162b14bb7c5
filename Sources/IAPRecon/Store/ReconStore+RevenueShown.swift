/// What the last report showed, per day, product, currency and transaction: the baseline of
/// `revenue_changes.csv`.
extension ReconStore {
    /// The contributions the latest report showed (empty before the first report).
    public func revenueShown() throws(StoreError) -> [RevenueContribution] {
        let stmt = try db.prepare(
            """
            SELECT \(RevenueShownRow.columns) FROM revenue_shown
            WHERE run_id = (SELECT MAX(run_id) FROM revenue_shown)
            ORDER BY date, product_id, currency, transaction_id
            """)
        var result: [RevenueContribution] = []
        while try stmt.step() {
            result.append(RevenueShownRow.contribution(stmt))
        }
        return result
    }

    /// Replaces the baseline with what this report shows.
    public func replaceRevenueShown(runID: Int64, with contributions: [RevenueContribution]) throws {
        try write {
            try db.execute("DELETE FROM revenue_shown", context: "replacing the revenue shown")
            let insert = try db.prepare(
                """
                INSERT INTO revenue_shown (run_id, date, product_id, currency, transaction_id, gross_milli, refunds_milli)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
            for item in contributions.sorted(by: { $0.key < $1.key }) {
                try insert.run([
                    .integer(runID), .text(item.key.date), .text(item.key.productID), .text(item.key.currency),
                    .text(item.key.transactionID), .integer(item.gross), .integer(item.refunds),
                ])
            }
        }
    }

    /// Transactions whose refund or revocation reached the store through the notification-history sweep.
    public func transactionsRefundedBySweep() throws(StoreError) -> Set<String> {
        let stmt = try db.prepare(
            """
            SELECT DISTINCT transaction_id FROM notifications
            WHERE source = 'history' AND notification_type IN ('REFUND', 'REVOKE') AND transaction_id IS NOT NULL
            """)
        var ids = Set<String>()
        while try stmt.step() { ids.insert(SQLiteRow(stmt, table: NotificationsRow.table).text("transaction_id")) }
        return ids
    }
}
