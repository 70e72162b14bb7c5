import AppleData
import ReconModel
import ReconStorage

/// Which rows of a developer account's Summary Sales Report (or Financial Report) are this app's sales.
///
/// A Summary Sales Report covers every app of the account ("aggregated sales and download data from the App Store
/// for your apps and in-app purchases":
/// https://developer.apple.com/help/app-store-connect/reference/summary-sales-report), so another app's in-app
/// purchases are in it too; comparing them with this app's ledger would be a mismatch on a clean ledger. A row is
/// this app's when its SKU (the product id) is in the catalog or in the ledger, when its `Parent Identifier` is one
/// of the app's bundle ids, or when its SKU starts with a bundle id and a `.` (`com.example.app.coins`). Apple's
/// sample report explains `Parent Identifier` as "the SKU of the parent app", which matches when the app's SKU in
/// App Store Connect is its bundle id. When nothing about the app is known (no catalog, no ledger product, no
/// bundle id), every row is taken as this app's.
///
/// Decided when detection runs, not at import: the catalog may be imported after the report.
public struct SalesReportApp: Sendable, Hashable {
    /// The catalog's product ids.
    public var catalogProducts: Set<String>
    /// `--bundle-id`: the app's own bundle ids.
    public var bundleIDs: Set<String>

    public init(catalogProducts: Set<String> = [], bundleIDs: Set<String> = []) {
        self.catalogProducts = catalogProducts
        self.bundleIDs = bundleIDs
    }

    /// The catalog and bundle ids detection works with.
    public init(_ context: DetectionContext) {
        self.init(catalogProducts: Set(context.catalog.keys), bundleIDs: context.bundleIDs)
    }

    /// Whether a row of `productID` under `parentIdentifier` is this app's, given the product ids the ledger holds.
    public func owns(productID: String, parentIdentifier: String?, ledgerProducts: Set<String>) -> Bool {
        if catalogProducts.isEmpty, bundleIDs.isEmpty, ledgerProducts.isEmpty { return true }
        if catalogProducts.contains(productID) || ledgerProducts.contains(productID) { return true }
        if let parentIdentifier, bundleIDs.contains(parentIdentifier) { return true }
        return bundleIDs.contains { productID.hasPrefix($0 + ".") }
    }
}
