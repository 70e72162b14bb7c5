/// The kind of in-app product, which decides what counts as a duplicate or a restore.
public enum ProductType: String, Sendable, Hashable, CaseIterable {
    case consumable
    case nonConsumable = "non-consumable"
    case autoRenewable = "auto-renewable"
    case nonRenewing = "non-renewing"

    /// Products whose original transaction id identifies one entitlement for good.
    public var isEntitlement: Bool { self != .consumable }
}

/// One catalog row (CONTRACT §1.3): a product, optionally for one storefront.
public struct CatalogProduct: Sendable, Hashable {
    public var productID: String
    public var type: ProductType
    /// Reference customer price.
    public var price: Money?
    /// ISO 3166-1 alpha-3 storefront, or nil for the default row.
    public var storefront: String?
    /// Share of net revenue the developer keeps, in parts per million (700 000 = 0.70).
    public var proceedsRatePPM: Int64

    /// What App Store Connect shows the developer receives per unit at this storefront's price, after the taxes
    /// Apple deducts and its commission (CONTRACT §1.3 `proceeds`), in the price's currency; nil when not given.
    public var proceeds: Money?

    /// The service period a purchase buys (CONTRACT §1.3 `duration`): the only source for a non-renewing
    /// subscription, a fallback for an auto-renewable one whose evidence states no expiry; nil when not given.
    public var duration: ServicePeriod?

    /// Whether the customer could try the product before buying (CONTRACT §1.3 `sample_content`; Apple's
    /// `sampleContentProvided`).
    public var sampleContent = false

    public static let defaultProceedsRatePPM: Int64 = 700_000

    public init(
        productID: String, type: ProductType, price: Money? = nil, storefront: String? = nil,
        proceedsRatePPM: Int64 = CatalogProduct.defaultProceedsRatePPM, proceeds: Money? = nil,
        duration: ServicePeriod? = nil
    ) {
        self.proceeds = proceeds
        self.duration = duration
        self.productID = productID
        self.type = type
        self.price = price
        self.storefront = storefront
        self.proceedsRatePPM = proceedsRatePPM
    }
}

extension ProductType {
    /// Parses Apple's JWS `type` (`Consumable`, `Non-Consumable`, `Auto-Renewable Subscription`,
    /// `Non-Renewing Subscription`), or the catalog's own spellings.
    package init?(appleType raw: String) {
        switch raw.lowercased() {
        case "consumable": self = .consumable
        case "non-consumable": self = .nonConsumable
        case "auto-renewable subscription", "auto-renewable": self = .autoRenewable
        case "non-renewing subscription", "non-renewing": self = .nonRenewing
        default: return nil
        }
    }
}
