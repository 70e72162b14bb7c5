import AppleData
import ReconModel

/// Apple Summary Sales Reports in the store: days covered and in-app purchase rows.
///
/// `day` columns are days since 1970-01-01 of the report's calendar day (a day in the
/// report's time zone, not an instant).
extension SQLAppleReports {
    package func salesReportWriter(source: String) throws(StoreError) -> any SalesReportWriter {
        try SQLSalesReportWriter(store: store, source: source)
    }

    /// Every day an imported sales report covers, ascending.
    public func salesReportDays() throws(StoreError) -> [Int] {
        let stmt = try db.prepare("SELECT day FROM sales_report_days ORDER BY day")
        var days: [Int] = []
        while try stmt.step() { days.append(Int(SQLRow(stmt, table: "sales_report_days").int64("day"))) }
        return days
    }

    /// Every stored sales report row, by day, product, storefront, currency, then file line.
    public func salesReportRows() throws(StoreError) -> [SalesReportRow] {
        let stmt = try db.prepare(
            """
            SELECT \(SalesReportRowsRow.columns) FROM sales_report_rows
            ORDER BY day, product_id NULLS FIRST, storefront NULLS FIRST, currency NULLS FIRST, source_line NULLS FIRST, id
            """)
        var rows: [SalesReportRow] = []
        while try stmt.step() { rows.append(SalesReportRowsRow.read(stmt)) }
        return rows
    }
}

/// Writes one sales report file into the store: the first row of a day replaces whatever an
/// earlier import stored for that day, so re-importing a report (or a corrected one) replaces it.
package final class SQLSalesReportWriter {
    private let store: ReconStore
    private let source: String
    private let now: Int64
    private let clearDay: any StoreStatement
    private let coverDay: any StoreStatement
    private let insertRow: any StoreStatement
    private let ledger: SQLLedgerWriter
    private var covered: Set<Int> = []

    package init(store: ReconStore, source: String) throws(StoreError) {
        self.store = store
        self.source = source
        now = store.clock.nowMillis()
        clearDay = try store.db.prepare("DELETE FROM sales_report_rows WHERE day = $1")
        coverDay = try store.db.prepare(
            RowInsert(
                into: "sales_report_days", ["day", "source_file", "imported_at"],
                onConflict: .update(
                    target: ["day"], set: "source_file = excluded.source_file, imported_at = excluded.imported_at")))
        insertRow = try store.db.prepare(
            RowInsert(
                into: "sales_report_rows",
                [
                    "day", "product_id", "product_type", "country_code", "storefront", "currency", "units",
                    "customer_price_milli", "proceeds_milli", "proceeds_currency", "parent_identifier", "source_file",
                    "source_line",
                ]))
        ledger = try SQLLedgerWriter(store: store)
        // This file's earlier rejections are replaced by this import's.
        try store.db.prepare("DELETE FROM rejected_rows WHERE kind = $1 AND source_file = $2")
            .run([.text(InputKind.salesReports.rawValue), .text(source)])
    }

    /// Marks `day` as covered by this file, dropping rows an earlier import stored for it.
    package func cover(_ day: Int) throws(StoreError) {
        guard covered.insert(day).inserted else { return }
        try clearDay.run([.integer(Int64(day))])
        try coverDay.run([.integer(Int64(day)), .text(source), .integer(now)])
        if store.db.isCitus {
            // What the rows' trigger notes elsewhere (``CitusLayout/referenceTriggers``): the day's rows change.
            try store.db.prepare(
                """
                INSERT INTO dirty_report_days (first_day, last_day) SELECT $1, $1
                WHERE EXISTS (SELECT 1 FROM detection_state) ON CONFLICT DO NOTHING
                """
            ).run([.integer(Int64(day))])
        }
    }

    package func insert(_ row: SalesReportRow) throws(StoreError) {
        try cover(row.day)
        try insertRow.run([
            .integer(Int64(row.day)), .text(row.productID), .text(row.productType), .text(row.countryCode),
            .text(row.storefront), .text(row.customerPrice.currency), .integer(row.units),
            .integer(row.customerPrice.milliunits), row.developerProceeds.map { .integer($0.milliunits) } ?? .null,
            row.developerProceeds.map { .text($0.currency) } ?? .null, row.parentIdentifier.map { .text($0) } ?? .null,
            .text(source), .integer(Int64(row.line)),
        ])
    }

    package func reject(_ row: RejectedRow) throws(StoreError) {
        try ledger.reject(row)
    }
}

@available(*, unavailable)
extension SQLSalesReportWriter: Sendable {}
