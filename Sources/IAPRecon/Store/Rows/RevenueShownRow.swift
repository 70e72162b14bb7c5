import Foundation

/// A `revenue_shown_by_transaction` row: what one report showed for one transaction on one day,
/// product and currency.
enum RevenueShownRow {
    static let table = "revenue_shown_by_transaction"

    static let columns = "date, product_id, currency, transaction_id, gross_milli, refunds_milli"

    static func contribution(_ statement: SQLiteStatement) -> RevenueContribution {
        let row = SQLiteRow(statement, table: table)
        return RevenueContribution(
            key: .init(
                date: row.text("date"), productID: row.text("product_id"), currency: row.text("currency"),
                transactionID: row.text("transaction_id")),
            gross: row.int64("gross_milli"), refunds: row.int64("refunds_milli"), refundSource: nil)
    }
}
