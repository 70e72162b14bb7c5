import Foundation

/// What the catalog says a product costs, and what a ledger row is worth.
extension DetectionContext {
    /// The catalog row for a product in a storefront, and whether it is that storefront's own row
    /// (rather than the default row or another storefront's).
    func catalogRow(
        _ productID: String, storefront: String?
    ) -> (product: CatalogProduct, exactStorefront: Bool)? {
        guard let product = self.product(productID, storefront: storefront) else { return nil }
        return (product, product.storefront == storefront)
    }

    /// The catalog price of `quantity` units of a product in a storefront, if the catalog has one.
    func catalogValue(_ productID: String, storefront: String?, quantity: Int) -> Money? {
        product(productID, storefront: storefront)?.price.flatMap { $0.times(quantity) }
    }

    /// What a ledger row is worth: its recorded price × quantity, else Apple's (JWS) unit price ×
    /// quantity, else the catalog price for its product and storefront × quantity.
    ///
    /// - Parameter applePrice: Apple's unit price for the transaction, when evidence states one.
    func value(of row: LedgerTransaction, applePrice: Money?) -> Money? {
        if let total = row.lineTotal { return total }
        if let applePrice, let total = applePrice.times(row.quantity) { return total }
        return catalogValue(row.productID, storefront: row.storefront, quantity: row.quantity)
    }
}
