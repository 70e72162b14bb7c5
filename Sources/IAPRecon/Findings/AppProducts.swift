/// Which products are this app's: a developer account's Apple reports cover all its apps, and only this app's
/// rows may be compared with its ledger.
///
/// A product is this app's when the catalog or the ledger names it, or its id starts with one of the app's bundle
/// ids and a dot (`com.example.app.coins`), or the report row's parent (the app it belongs to, a Sales Report's
/// `Parent Identifier`) is one of them. With nothing known (no catalog, no ledger, no bundle id) every product
/// is taken as the app's.
public struct AppProducts: Sendable {
    let known: Set<String>
    let bundleIDs: Set<String>

    public init(known: Set<String>, bundleIDs: Set<String>) {
        self.known = known
        self.bundleIDs = bundleIDs
    }

    /// Whether `productID` (with its report's `parent`, when the report names one) is this app's.
    public func contains(_ productID: String, parent: String? = nil) -> Bool {
        if known.isEmpty && bundleIDs.isEmpty { return true }
        if known.contains(productID) { return true }
        if let parent, bundleIDs.contains(parent) { return true }
        return bundleIDs.contains { productID.hasPrefix($0 + ".") }
    }
}
