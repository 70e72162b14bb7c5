import AppleData
import ReconModel

/// What a night needs to patch the last report's `revenue_schedule.csv` rather than write it whole: the file that
/// report wrote (``RevenueScheduleRecord``), and the lines that can have changed since, read in transaction id order.
extension SQLRevenue {
    /// The `revenue_schedule.csv` the report whose results are kept wrote; nil when none is recorded.
    package func revenueScheduleRecord() throws(StoreError) -> RevenueScheduleRecord? {
        let stmt = try db.prepare("SELECT path, as_of, bytes, crc32 FROM revenue_schedule_written WHERE id = 1")
        guard try stmt.step() else { return nil }
        let crc = stmt.int64(3)
        guard let checksum = UInt32(exactly: crc) else { return nil }
        return RevenueScheduleRecord(path: stmt.text(0), asOf: stmt.int64(1), bytes: stmt.int64(2), crc32: checksum)
    }

    /// Makes `record` the file the kept results were written to, or forgets it (nil); inside the caller's write
    /// transaction, with the results.
    func replaceRevenueScheduleRecord(_ record: RevenueScheduleRecord?) throws(StoreError) {
        try db.execute("DELETE FROM revenue_schedule_written", context: "keeping the results")
        guard let record else { return }
        try db.prepare(
            RowInsert(into: "revenue_schedule_written", ["path", "as_of", "bytes", "crc32"], constants: [("id", "1")])
        )
        .run([.text(record.path), .integer(record.asOf), .integer(record.bytes), .integer(Int64(record.crc32))])
    }

    /// The schedule's lines an incremental report can have changed since the kept results' report at `since`, in
    /// transaction id order: each transaction judged again, with its sale now (nil: no longer a counted sale), and
    /// each kept sale not judged again whose last change is at or after `since` (in flight then, or purchased since).
    ///
    /// Any other kept sale's line reads as it did: its totals stopped moving before `since`. Read with the index by
    /// last change, then in transaction id order: proportional to the night and the sales in flight, not the store.
    package func forEachScheduleChange(since: Int64, _ body: (String, RecognitionSale?) throws -> Void) throws {
        try db.execute(
            [
                "DROP TABLE IF EXISTS schedule_in_flight",
                """
                CREATE TEMP TABLE schedule_in_flight (
                    transaction_id \(db.dialect.text) PRIMARY KEY NOT NULL)\(db.dialect.withoutRowID)
                """,
            ], context: "listing the schedule's sales in flight")
        try db.prepare(
            """
            INSERT INTO schedule_in_flight
            SELECT transaction_id FROM recognition_sales\(db.dialect.indexedBy("recognition_sales_by_last_change"))
            WHERE last_change >= $1 AND transaction_id NOT IN (SELECT transaction_id FROM rerun)
            """
        ).run([.integer(since)])
        // The in-flight ids sorted first: SQLite looks each kept sale up in transaction id order (a page after the
        // other) and merges the two ordered halves without sorting.
        let stmt = try db.prepare(
            """
            SELECT r.transaction_id AS transaction_id, n.original_transaction_id, n.user_id, n.product_id, n.currency,
                n.amount_milli, n.start_at, n.end_at, n.period_source, n.refunds
            FROM rerun r LEFT JOIN new_recognition_sales n ON n.transaction_id = r.transaction_id
            UNION ALL
            SELECT transaction_id, original_transaction_id, user_id, product_id, currency, amount_milli, start_at, end_at,
                period_source, refunds
            FROM recognition_sales WHERE transaction_id IN (SELECT transaction_id FROM schedule_in_flight)
            ORDER BY transaction_id
            """)
        while try stmt.step() {
            let id = stmt.text(0)
            guard !stmt.isNull(8) else {
                try body(id, nil)
                continue
            }
            try body(id, try Self.sale(stmt))
        }
        try db.execute("DROP TABLE schedule_in_flight", context: "listing the schedule's sales in flight")
    }
}
