import AppleData
import Foundation
import ReconModel

/// A `sales_report_rows` row as a ``SalesReportRow``.
package enum SalesReportRowsRow {
    package static let table = "sales_report_rows"

    package static let columns = """
        day, product_id, product_type, country_code, storefront, currency, units, customer_price_milli,
        proceeds_milli, proceeds_currency, parent_identifier, source_line
        """

    package static func read(_ statement: any StoreStatement) -> SalesReportRow {
        let row = SQLRow(statement, table: table)
        return SalesReportRow(
            day: Int(row.int64("day")), productID: row.text("product_id"), productType: row.text("product_type"),
            countryCode: row.text("country_code"), storefront: row.text("storefront"), units: row.int64("units"),
            customerPrice: Money(milliunits: row.int64("customer_price_milli"), currency: row.text("currency")),
            developerProceeds: row.money("proceeds_milli", "proceeds_currency"),
            parentIdentifier: row.optionalText("parent_identifier"), line: Int(row.int64("source_line")))
    }
}
