import ReconModel

/// A StoreKit 2 signed transaction's claims, named as Apple's `JWSTransactionDecodedPayload`.
///
/// Every member is optional, as Apple sends only what applies. Enumerations stay raw (strings,
/// or Apple's integers) so that values Apple adds later still decode; dates are epoch
/// milliseconds. See https://developer.apple.com/documentation/appstoreserverapi/jwstransactiondecodedpayload
public struct JWSTransactionDecodedPayload: Codable, Hashable, Sendable {
    /// The transaction's unique id.
    public var transactionId: String?
    /// The id of the original purchase (equal to `transactionId` for a first purchase).
    public var originalTransactionId: String?
    /// The subscription purchase event's id across devices.
    public var webOrderLineItemId: String?
    /// The app's bundle id.
    public var bundleId: String?
    /// The in-app product id.
    public var productId: String?
    /// The subscription group of an auto-renewable subscription.
    public var subscriptionGroupIdentifier: String?
    /// When the App Store charged (epoch ms).
    public var purchaseDate: Int64?
    /// When the original transaction was made (epoch ms).
    public var originalPurchaseDate: Int64?
    /// When a subscription expires or renews (epoch ms).
    public var expiresDate: Int64?
    /// The number of consumables bought.
    public var quantity: Int32?
    /// Raw product type: `Auto-Renewable Subscription`, `Non-Consumable`, `Consumable`, `Non-Renewing Subscription`.
    public var type: String?
    /// The UUID the app attached to the purchase.
    public var appAccountToken: String?
    /// Raw ownership: `PURCHASED` or `FAMILY_SHARED`.
    public var inAppOwnershipType: String?
    /// When the App Store signed this JWS (epoch ms).
    public var signedDate: Int64?
    /// Raw revocation reason: `0` other, `1` an issue in the app.
    public var revocationReason: Int32?
    /// When Apple refunded or revoked it (epoch ms).
    public var revocationDate: Int64?
    /// Whether the user upgraded to another subscription.
    public var isUpgraded: Bool?
    /// Raw offer type: `1` introductory, `2` promotional, `3` offer code, `4` win-back.
    public var offerType: Int32?
    /// The offer's identifier.
    public var offerIdentifier: String?
    /// Raw environment: `Production`, `Sandbox`, `Xcode`, `LocalTesting`.
    public var environment: String?
    /// The storefront's ISO 3166-1 alpha-3 country code.
    public var storefront: String?
    /// Apple's storefront id.
    public var storefrontId: String?
    /// Raw reason: `PURCHASE` or `RENEWAL`.
    public var transactionReason: String?
    /// The customer price in milliunits of `currency`.
    public var price: Int64?
    /// ISO 4217 currency code of `price`.
    public var currency: String?
    /// Raw discount mode: `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`.
    public var offerDiscountType: String?
    /// Raw revocation type: `REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`.
    public var revocationType: String?
    /// Refunded share in thousandths of a percent (50 000 = 50 %).
    public var revocationPercentage: Int32?
    /// The app transaction id of the app download.
    public var appTransactionId: String?
    /// ISO 8601 duration of the offer (`P1M`).
    public var offerPeriod: String?
    /// Raw billing plan: `MONTHLY` for monthly billing of a 1-year product with a 12-month commitment (iOS 26.4).
    /// Apple: https://developer.apple.com/documentation/appstoreserverapi/billingplantype
    public var billingPlanType: String? = nil
    /// The commitment this transaction's period belongs to (with `billingPlanType` `MONTHLY`).
    public var commitmentInfo: TransactionCommitmentInfo? = nil

    /// A payload with the given members (all optional, in Apple's order).
    public init(
        transactionId: String? = nil, originalTransactionId: String? = nil, webOrderLineItemId: String? = nil,
        bundleId: String? = nil, productId: String? = nil, subscriptionGroupIdentifier: String? = nil,
        purchaseDate: Int64? = nil, originalPurchaseDate: Int64? = nil, expiresDate: Int64? = nil,
        quantity: Int32? = nil, type: String? = nil, appAccountToken: String? = nil,
        inAppOwnershipType: String? = nil, signedDate: Int64? = nil, revocationReason: Int32? = nil,
        revocationDate: Int64? = nil, isUpgraded: Bool? = nil, offerType: Int32? = nil,
        offerIdentifier: String? = nil, environment: String? = nil, storefront: String? = nil,
        storefrontId: String? = nil, transactionReason: String? = nil, price: Int64? = nil,
        currency: String? = nil, offerDiscountType: String? = nil, revocationType: String? = nil,
        revocationPercentage: Int32? = nil, appTransactionId: String? = nil, offerPeriod: String? = nil
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.bundleId = bundleId
        self.productId = productId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.quantity = quantity
        self.type = type
        self.appAccountToken = appAccountToken
        self.inAppOwnershipType = inAppOwnershipType
        self.signedDate = signedDate
        self.revocationReason = revocationReason
        self.revocationDate = revocationDate
        self.isUpgraded = isUpgraded
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.environment = environment
        self.storefront = storefront
        self.storefrontId = storefrontId
        self.transactionReason = transactionReason
        self.price = price
        self.currency = currency
        self.offerDiscountType = offerDiscountType
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
    }

    /// Decodes leniently: numbers for ids, fractional milliseconds, unknown members ignored.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transactionId = try c.lenientString(.transactionId)
        originalTransactionId = try c.lenientString(.originalTransactionId)
        webOrderLineItemId = try c.lenientString(.webOrderLineItemId)
        bundleId = try c.lenientString(.bundleId)
        productId = try c.lenientString(.productId)
        subscriptionGroupIdentifier = try c.lenientString(.subscriptionGroupIdentifier)
        purchaseDate = try c.lenientInt64(.purchaseDate)
        originalPurchaseDate = try c.lenientInt64(.originalPurchaseDate)
        expiresDate = try c.lenientInt64(.expiresDate)
        quantity = try c.lenientInt32(.quantity)
        type = try c.lenientString(.type)
        appAccountToken = try c.lenientString(.appAccountToken)
        inAppOwnershipType = try c.lenientString(.inAppOwnershipType)
        signedDate = try c.lenientInt64(.signedDate)
        revocationReason = try c.lenientInt32(.revocationReason)
        revocationDate = try c.lenientInt64(.revocationDate)
        isUpgraded = try c.lenientBool(.isUpgraded)
        offerType = try c.lenientInt32(.offerType)
        offerIdentifier = try c.lenientString(.offerIdentifier)
        environment = try c.lenientString(.environment)
        storefront = try c.lenientString(.storefront)
        storefrontId = try c.lenientString(.storefrontId)
        transactionReason = try c.lenientString(.transactionReason)
        price = try c.lenientInt64(.price)
        currency = try c.lenientString(.currency)
        offerDiscountType = try c.lenientString(.offerDiscountType)
        revocationType = try c.lenientString(.revocationType)
        revocationPercentage = try c.lenientInt32(.revocationPercentage)
        appTransactionId = try c.lenientString(.appTransactionId)
        offerPeriod = try c.lenientString(.offerPeriod)
        billingPlanType = try c.lenientString(.billingPlanType)
        commitmentInfo = try c.decodeIfPresent(TransactionCommitmentInfo.self, forKey: .commitmentInfo)
    }

    /// ``environment`` parsed (nil when absent).
    public var storeEnvironment: StoreEnvironment? {
        environment.map(StoreEnvironment.init(raw:))
    }
}

extension JWSTransactionDecodedPayload: SignedPayload {
    package var signedDateMillis: Int64? { signedDate }
    package var payloadBundleID: String? { bundleId }
    package var payloadEnvironment: String? { environment }
}
