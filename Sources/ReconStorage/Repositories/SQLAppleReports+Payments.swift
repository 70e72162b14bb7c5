import AppleData
import ReconModel

/// Apple's payment summaries in the store (CONTRACT §1.9), one per fiscal month.
extension SQLAppleReports {
    /// Stores a whole summary in one transaction, replacing what an earlier import stored for its month.
    package func storePaymentSummary(_ summary: PaymentSummary, source: String) throws(StoreError) {
        let year = Int64(summary.month.year)
        let month = Int64(summary.month.month)
        try store.ledgerImport.beginBatch()
        do throws(StoreError) {
            try db.prepare("DELETE FROM payment_regions WHERE fiscal_year = $1 AND fiscal_month = $2")
                .run([.integer(year), .integer(month)])
            try db.prepare("DELETE FROM payment_summaries WHERE fiscal_year = $1 AND fiscal_month = $2")
                .run([.integer(year), .integer(month)])
            try db.prepare(
                RowInsert(
                    into: "payment_summaries",
                    ["fiscal_year", "fiscal_month", "total_paid_milli", "bank_currency", "source_file", "imported_at"])
            ).run([
                .integer(year), .integer(month), summary.totalPaid.map { .integer($0.milliunits) } ?? .null,
                summary.totalPaid.map { .text($0.currency) } ?? .null, .text(source), .integer(clock.nowMillis()),
            ])
            let insert = try db.prepare(
                RowInsert(
                    into: "payment_regions",
                    [
                        "fiscal_year", "fiscal_month", "region", "currency", "units_sold", "earned_milli",
                        "pre_tax_subtotal_milli", "input_tax_milli", "adjustments_milli", "withholding_tax_milli",
                        "total_owed_milli", "exchange_rate", "proceeds_milli", "bank_currency", "source_line",
                    ],
                    onConflict: .update(
                        target: ["fiscal_year", "fiscal_month", "region", "currency"],
                        set:
                            "units_sold = excluded.units_sold, earned_milli = excluded.earned_milli, pre_tax_subtotal_milli = excluded.pre_tax_subtotal_milli, input_tax_milli = excluded.input_tax_milli, adjustments_milli = excluded.adjustments_milli, withholding_tax_milli = excluded.withholding_tax_milli, total_owed_milli = excluded.total_owed_milli, exchange_rate = excluded.exchange_rate, proceeds_milli = excluded.proceeds_milli, bank_currency = excluded.bank_currency, source_line = excluded.source_line"
                    )))
            for r in summary.regions {
                try insert.run([
                    .integer(year), .integer(month), .text(r.region), .text(r.currency), .integer(r.unitsSold),
                    .integer(r.earned.milliunits), .integer(r.preTaxSubtotal.milliunits),
                    .integer(r.inputTax.milliunits), .integer(r.adjustments.milliunits),
                    .integer(r.withholdingTax.milliunits), .integer(r.totalOwed.milliunits), .text(r.exchangeRate),
                    .integer(r.proceeds.milliunits), .text(r.proceeds.currency), .integer(Int64(r.line)),
                ])
            }
            try store.ledgerImport.commitBatch()
        } catch {
            store.ledgerImport.rollbackBatch()
            throw error
        }
    }

    /// Every stored summary, by fiscal month; regions by currency, then name.
    public func paymentSummaries() throws(StoreError) -> [PaymentSummary] {
        var summaries: [FiscalMonth: PaymentSummary] = [:]
        let heads = try db.prepare(
            "SELECT fiscal_year, fiscal_month, total_paid_milli, bank_currency FROM payment_summaries")
        while try heads.step() {
            let row = SQLRow(heads, table: "payment_summaries")
            let month = FiscalMonth(year: Int(row.int64("fiscal_year")), month: Int(row.int64("fiscal_month")))
            summaries[month] = PaymentSummary(
                month: month, regions: [], totalPaid: row.money("total_paid_milli", "bank_currency"))
        }
        let regions = try db.prepare("SELECT * FROM payment_regions ORDER BY currency NULLS FIRST, region")
        while try regions.step() {
            let row = SQLRow(regions, table: "payment_regions")
            let month = FiscalMonth(year: Int(row.int64("fiscal_year")), month: Int(row.int64("fiscal_month")))
            let currency = row.text("currency")
            func money(_ column: String) -> Money { Money(milliunits: row.int64(column), currency: currency) }
            summaries[month]?.regions.append(
                PaymentRegion(
                    region: row.text("region"), currency: currency, unitsSold: row.int64("units_sold"),
                    earned: money("earned_milli"), preTaxSubtotal: money("pre_tax_subtotal_milli"),
                    inputTax: money("input_tax_milli"), adjustments: money("adjustments_milli"),
                    withholdingTax: money("withholding_tax_milli"), totalOwed: money("total_owed_milli"),
                    exchangeRate: row.text("exchange_rate"),
                    proceeds: Money(milliunits: row.int64("proceeds_milli"), currency: row.text("bank_currency")),
                    line: Int(row.int64("source_line"))))
        }
        return summaries.keys.sorted().compactMap { summaries[$0] }
    }
}
