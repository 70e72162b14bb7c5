import AppleData
import Foundation
import ReconModel
import ReconStorage

/// What the catalog says a product costs, and what a ledger row is worth.
extension DetectionContext {
    /// The catalog row for a product in a storefront, and whether it is that storefront's own row
    /// (rather than the default row or another storefront's).
    ///
    /// A row without a storefront is priced against the catalog row in its own `currency`, never
    /// against another currency's row, and is never an exact storefront match.
    package func catalogRow(
        _ productID: String, storefront: String?, currency: String? = nil
    ) -> (product: CatalogProduct, exactStorefront: Bool)? {
        guard let product = self.product(productID, storefront: storefront, currency: currency) else { return nil }
        return (product, storefront != nil && product.storefront == storefront)
    }

    /// The catalog price of `quantity` units of a product in a storefront, if the catalog has one.
    package func catalogValue(_ productID: String, storefront: String?, quantity: Int) -> Money? {
        product(productID, storefront: storefront)?.price.flatMap { $0.times(quantity) }
    }

    /// What a ledger row is worth: its recorded price × quantity, else Apple's (JWS) `price`,
    /// else the catalog price for its product and storefront × quantity.
    ///
    /// - Parameter applePrice: Apple's `price` for the transaction, which Apple documents as "the
    ///   total amount of the transaction for the quantity the customer purchased" (App Store
    ///   Server API, JWSTransactionDecodedPayload.price): never multiplied by the quantity again.
    package func value(of row: LedgerTransaction, applePrice: Money?) -> Money? {
        if let total = row.lineTotal { return total }
        if let applePrice { return applePrice }
        return catalogValue(row.productID, storefront: row.storefront, quantity: row.quantity)
    }
}
