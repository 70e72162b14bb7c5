import AppleData
import Foundation
import ReconModel

/// A `products` row as a ``CatalogProduct``.
package enum ProductsRow {
    package static let table = "products"

    package static let columns =
        "product_id, storefront, type, price_milli, currency, proceeds_rate_ppm, proceeds_milli, duration, sample_content"

    /// - Throws: ``StoreError/unknownValue(table:column:value:)`` for a product type this program
    ///   does not know.
    package static func read(_ statement: any StoreStatement) throws(StoreError) -> CatalogProduct {
        let row = SQLRow(statement, table: table)
        // The default row is stored with an empty storefront (part of the primary key).
        let storefront = row.text("storefront")
        var product = CatalogProduct(
            productID: row.text("product_id"), type: try row.value("type", as: ProductType.self),
            price: row.money("price_milli", "currency"), storefront: storefront.isEmpty ? nil : storefront,
            proceedsRatePPM: row.int64("proceeds_rate_ppm"), proceeds: row.money("proceeds_milli", "currency"),
            duration: row.optionalText("duration").flatMap(ServicePeriod.init(iso:)))
        product.sampleContent = row.optionalInt64("sample_content") == 1
        return product
    }
}
