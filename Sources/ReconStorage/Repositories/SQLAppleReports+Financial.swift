import AppleData
import ReconModel

/// Apple's Financial Reports in the store (CONTRACT §1.9): one report per fiscal period, region and
/// region currency, every row of it.
extension SQLAppleReports {
    /// Stores a whole report in one transaction, replacing what an earlier import stored for the
    /// same period and region currency.
    ///
    /// The replaced unit is (period, region, currency): Apple's Americas (`US`) and Rest of World
    /// (`WW`) regions are both paid in USD, so a region's file never replaces the other's. An
    /// all-regions file (`ZZ`, or a file whose name does not say) replaces every region of the
    /// currencies it holds, and a region's file replaces the all-regions file's rows of its currency:
    /// the same sale is never stored twice.
    package func storeFinancialReport(_ report: FinancialReport, source: String) throws(StoreError) {
        let region = report.region
        let currencies = Array(Set(report.rows.map(\.regionCurrency))).sorted()
        let whole = region.isEmpty || region == "ZZ"
        try store.ledgerImport.beginBatch()
        do throws(StoreError) {
            let find = try db.prepare(
                """
                SELECT report_id, region FROM financial_reports
                WHERE period_start = $1 AND period_end = $2 AND currency = $3
                """)
            let dropRows = try db.prepare("DELETE FROM financial_report_rows WHERE report_id = $1")
            let dropReport = try db.prepare("DELETE FROM financial_reports WHERE report_id = $1")
            let insertReport = try db.prepare(
                """
                INSERT INTO financial_reports (period_start, period_end, region, currency, source_file, imported_at)
                VALUES ($1, $2, $3, $4, $5, $6) RETURNING report_id
                """)
            let insertRow = try db.prepare(
                RowInsert(
                    into: "financial_report_rows",
                    [
                        "report_id", "product_id", "product_type", "country_code", "quantity", "partner_share_milli",
                        "extended_partner_share_milli", "partner_share_currency", "is_return", "customer_price_milli",
                        "customer_currency", "source_line",
                    ]))
            let period = report.period
            let now = clock.nowMillis()
            for currency in currencies {
                try find.bind([.integer(Int64(period.start)), .integer(Int64(period.end)), .text(currency)])
                var replaced: [Int64] = []
                while try find.step() {
                    let row = SQLRow(find, table: "financial_reports")
                    let stored = row.text("region")
                    if whole || stored == region || stored.isEmpty || stored == "ZZ" {
                        replaced.append(row.int64("report_id"))
                    }
                }
                for id in replaced {
                    try dropRows.run([.integer(id)])
                    try dropReport.run([.integer(id)])
                }
                try insertReport.bind([
                    .integer(Int64(period.start)), .integer(Int64(period.end)), .text(region), .text(currency),
                    .text(source), .integer(now),
                ])
                guard try insertReport.step() else {
                    throw StoreError.sqlite(code: 0, message: "no report id", context: "storing a Financial Report")
                }
                let id = SQLRow(insertReport, table: "financial_reports").int64("report_id")
                while try insertReport.step() {}
                if db.isCitus {
                    // What the reports' trigger notes elsewhere (``CitusLayout/referenceTriggers``): the period's days.
                    try db.prepare(
                        """
                        INSERT INTO dirty_report_days (first_day, last_day) SELECT $1, $2
                        WHERE EXISTS (SELECT 1 FROM detection_state) ON CONFLICT DO NOTHING
                        """
                    ).run([.integer(Int64(period.start)), .integer(Int64(period.end))])
                }
                for row in report.rows where row.regionCurrency == currency {
                    try insertRow.run([
                        .integer(id), .text(row.productID), .text(row.productType), .text(row.countryCode),
                        .integer(row.quantity), .integer(row.partnerShare.milliunits),
                        .integer(row.extendedPartnerShare.milliunits), .text(currency), .integer(row.isReturn ? 1 : 0),
                        .integer(row.customerPrice.milliunits), .text(row.customerPrice.currency),
                        .integer(Int64(row.line)),
                    ])
                }
            }
            try store.ledgerImport.commitBatch()
        } catch {
            store.ledgerImport.rollbackBatch()
            throw error
        }
    }

    /// Whether any Financial Report is in the store.
    public func hasFinancialReports() throws(StoreError) -> Bool {
        let stmt = try db.prepare("SELECT EXISTS (SELECT 1 FROM financial_reports) AS present")
        return try stmt.step() && SQLRow(stmt, table: "financial_reports").int64("present") == 1
    }

    /// Every stored report row, by period, region currency, product, country, then file line.
    public func financialReportRows() throws(StoreError) -> [FinancialReportRow] {
        let stmt = try db.prepare(
            """
            SELECT r.period_start, r.period_end, f.product_id, f.product_type, f.country_code, f.quantity,
                f.partner_share_milli, f.extended_partner_share_milli, f.partner_share_currency, f.is_return,
                f.customer_price_milli, f.customer_currency, f.source_line
            FROM financial_report_rows f JOIN financial_reports r ON r.report_id = f.report_id
            ORDER BY r.period_start, r.period_end, r.currency NULLS FIRST, f.product_id NULLS FIRST, f.country_code, r.region, f.source_line NULLS FIRST, f.id
            """)
        var rows: [FinancialReportRow] = []
        while try stmt.step() {
            let row = SQLRow(stmt, table: "financial_report_rows")
            let currency = row.text("partner_share_currency")
            rows.append(
                FinancialReportRow(
                    period: FiscalPeriod(start: Int(row.int64("period_start")), end: Int(row.int64("period_end"))),
                    productID: row.text("product_id"), productType: row.text("product_type"),
                    countryCode: row.text("country_code"), quantity: row.int64("quantity"),
                    partnerShare: Money(milliunits: row.int64("partner_share_milli"), currency: currency),
                    extendedPartnerShare: Money(
                        milliunits: row.int64("extended_partner_share_milli"), currency: currency),
                    customerPrice: Money(
                        milliunits: row.int64("customer_price_milli"), currency: row.text("customer_currency")),
                    isReturn: row.int64("is_return") != 0, line: Int(row.int64("source_line"))))
        }
        return rows
    }
}
