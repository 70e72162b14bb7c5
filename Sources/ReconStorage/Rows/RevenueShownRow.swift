import AppleData
import Foundation
import ReconModel

/// A `revenue_shown_by_transaction` row: what one report showed for one transaction on one day,
/// product and currency.
package enum RevenueShownRow {
    package static let table = "revenue_shown_by_transaction"

    package static let columns = "date, product_id, currency, transaction_id, gross_milli, refunds_milli"

    package static func contribution(_ statement: any StoreStatement) -> RevenueContribution {
        let row = SQLRow(statement, table: table)
        return RevenueContribution(
            key: .init(
                date: row.text("date"), productID: row.text("product_id"), currency: row.text("currency"),
                transactionID: row.text("transaction_id")),
            gross: row.int64("gross_milli"), refunds: row.int64("refunds_milli"), refundSource: nil)
    }
}
