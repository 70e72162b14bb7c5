import AppleData
import Foundation
import ReconModel
import ReconStorage

/// The settings and reference data every detector may consult.
public struct DetectionContext: Sendable {
    /// "Now" for grace periods: `--as-of`, epoch ms.
    public var asOf: Int64
    public var deliveryGraceMillis: Int64
    public var finishGraceMillis: Int64
    public var pendingLimitMillis: Int64
    /// The app's own bundle ids; empty means "not configured" (no BUNDLE_MISMATCH then).
    public var bundleIDs: Set<String>
    /// The catalog: product id → rows (one per storefront, nil storefront = default row).
    public var catalog: [String: [CatalogProduct]]
    /// When the ledger begins (`--ledger-start`); nil: it holds everything.
    public var ledgerStart: Int64?
    /// The transaction ids that are one purchase (restores, second devices): counted once, never missing while the
    /// ledger books any of them.
    public var samePurchase = SamePurchaseIndex()

    /// The context at `asOf` with the given thresholds; their defaults live in ``ReconConfig`` alone, and the
    /// composition root passes the validated settings.
    public init(
        asOf: Int64, deliveryGraceMillis: Int64, finishGraceMillis: Int64, pendingLimitMillis: Int64,
        bundleIDs: Set<String>, catalog: [String: [CatalogProduct]] = [:]
    ) {
        self.asOf = asOf
        self.deliveryGraceMillis = deliveryGraceMillis
        self.finishGraceMillis = finishGraceMillis
        self.pendingLimitMillis = pendingLimitMillis
        self.bundleIDs = bundleIDs
        self.catalog = catalog
    }

    /// A context for reading evidence only (which of it may speak about this app's purchases, and what it states):
    /// no deadlines, no catalog.
    package static func readingEvidence(bundleIDs: Set<String>) -> DetectionContext {
        DetectionContext(
            asOf: 0, deliveryGraceMillis: 0, finishGraceMillis: 0, pendingLimitMillis: 0, bundleIDs: bundleIDs)
    }

    /// The catalog row for a product in a storefront, falling back to a row in `currency` (when
    /// given: the default row first), then the default row.
    ///
    /// Asked several times for every transaction judged: it allocates nothing.
    public func product(_ productID: String, storefront: String?, currency: String? = nil) -> CatalogProduct? {
        guard let rows = catalog[productID] else { return nil }
        // A product of one row is that row, whatever the storefront and currency.
        if rows.count == 1 { return rows[0] }
        if let storefront, let exact = rows.first(where: { $0.storefront == storefront }) { return exact }
        if let currency {
            // The default row in that currency, else the first row in it.
            var firstInCurrency: CatalogProduct?
            for row in rows {
                guard let price = row.price, Self.sameCurrency(price.currency, currency) else { continue }
                if row.storefront == nil { return row }
                if firstInCurrency == nil { firstInCurrency = row }
            }
            if let firstInCurrency { return firstInCurrency }
        }
        return rows.first(where: { $0.storefront == nil }) ?? rows.first
    }

    /// Whether two currency codes are the same, whatever their case.
    private static func sameCurrency(_ one: String, _ other: String) -> Bool {
        one == other || one.uppercased() == other.uppercased()
    }
}
