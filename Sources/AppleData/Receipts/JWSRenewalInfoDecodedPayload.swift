import ReconModel

/// A StoreKit 2 signed subscription renewal info, named as Apple's `JWSRenewalInfoDecodedPayload`.
///
/// Every member is optional; enumerations stay raw; dates are epoch milliseconds.
/// See https://developer.apple.com/documentation/appstoreserverapi/jwsrenewalinfodecodedpayload
public struct JWSRenewalInfoDecodedPayload: Codable, Hashable, Sendable {
    /// Raw reason a subscription expired: `1` cancelled to `5` other.
    public var expirationIntent: Int32?
    /// The original transaction id of the subscription.
    public var originalTransactionId: String?
    /// The product that renews next.
    public var autoRenewProductId: String?
    /// The product currently subscribed.
    public var productId: String?
    /// Raw auto-renew status: `0` off, `1` on.
    public var autoRenewStatus: Int32?
    /// Whether Apple is retrying a failed billing.
    public var isInBillingRetryPeriod: Bool?
    /// Raw price-increase consent status.
    public var priceIncreaseStatus: Int32?
    /// When the billing grace period ends (epoch ms).
    public var gracePeriodExpiresDate: Int64?
    /// Raw offer type of the next renewal.
    public var offerType: Int32?
    /// The offer's identifier.
    public var offerIdentifier: String?
    /// When the App Store signed this JWS (epoch ms).
    public var signedDate: Int64?
    /// Raw environment: `Production`, `Sandbox`, `Xcode`, `LocalTesting`.
    public var environment: String?
    /// Start of the current run of continuous subscription (epoch ms).
    public var recentSubscriptionStartDate: Int64?
    /// When the subscription renews next (epoch ms).
    public var renewalDate: Int64?
    /// ISO 4217 code of `renewalPrice`.
    public var currency: String?
    /// The next renewal's price in milliunits.
    public var renewalPrice: Int64?
    /// Raw discount mode of the next renewal's offer.
    public var offerDiscountType: String?
    /// Win-back offers the customer may redeem.
    public var eligibleWinBackOfferIds: [String]?
    /// The UUID the app attached to the purchase.
    public var appAccountToken: String?
    /// The app transaction id of the app download.
    public var appTransactionId: String?
    /// ISO 8601 duration of the offer.
    public var offerPeriod: String?
    /// What renews after a 12-month commitment's last period.
    public var commitmentInfo: RenewalCommitmentInfo? = nil
    /// Raw billing plan of the next renewal (`MONTHLY`).
    public var renewalBillingPlanType: String? = nil

    /// A payload with the given members (all optional).
    public init(
        expirationIntent: Int32? = nil, originalTransactionId: String? = nil, autoRenewProductId: String? = nil,
        productId: String? = nil, autoRenewStatus: Int32? = nil, isInBillingRetryPeriod: Bool? = nil,
        priceIncreaseStatus: Int32? = nil, gracePeriodExpiresDate: Int64? = nil, offerType: Int32? = nil,
        offerIdentifier: String? = nil, signedDate: Int64? = nil, environment: String? = nil,
        recentSubscriptionStartDate: Int64? = nil, renewalDate: Int64? = nil, currency: String? = nil,
        renewalPrice: Int64? = nil, offerDiscountType: String? = nil, eligibleWinBackOfferIds: [String]? = nil,
        appAccountToken: String? = nil, appTransactionId: String? = nil, offerPeriod: String? = nil
    ) {
        self.expirationIntent = expirationIntent
        self.originalTransactionId = originalTransactionId
        self.autoRenewProductId = autoRenewProductId
        self.productId = productId
        self.autoRenewStatus = autoRenewStatus
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.priceIncreaseStatus = priceIncreaseStatus
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.signedDate = signedDate
        self.environment = environment
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
        self.currency = currency
        self.renewalPrice = renewalPrice
        self.offerDiscountType = offerDiscountType
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
    }

    /// Decodes leniently: numbers for ids, fractional milliseconds, unknown members ignored.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        expirationIntent = try c.lenientInt32(.expirationIntent)
        originalTransactionId = try c.lenientString(.originalTransactionId)
        autoRenewProductId = try c.lenientString(.autoRenewProductId)
        productId = try c.lenientString(.productId)
        autoRenewStatus = try c.lenientInt32(.autoRenewStatus)
        isInBillingRetryPeriod = try c.lenientBool(.isInBillingRetryPeriod)
        priceIncreaseStatus = try c.lenientInt32(.priceIncreaseStatus)
        gracePeriodExpiresDate = try c.lenientInt64(.gracePeriodExpiresDate)
        offerType = try c.lenientInt32(.offerType)
        offerIdentifier = try c.lenientString(.offerIdentifier)
        signedDate = try c.lenientInt64(.signedDate)
        environment = try c.lenientString(.environment)
        recentSubscriptionStartDate = try c.lenientInt64(.recentSubscriptionStartDate)
        renewalDate = try c.lenientInt64(.renewalDate)
        currency = try c.lenientString(.currency)
        renewalPrice = try c.lenientInt64(.renewalPrice)
        offerDiscountType = try c.lenientString(.offerDiscountType)
        eligibleWinBackOfferIds = try c.decodeIfPresent([String].self, forKey: .eligibleWinBackOfferIds)
        appAccountToken = try c.lenientString(.appAccountToken)
        appTransactionId = try c.lenientString(.appTransactionId)
        offerPeriod = try c.lenientString(.offerPeriod)
        commitmentInfo = try c.decodeIfPresent(RenewalCommitmentInfo.self, forKey: .commitmentInfo)
        renewalBillingPlanType = try c.lenientString(.renewalBillingPlanType)
    }

    /// ``environment`` parsed (nil when absent).
    public var storeEnvironment: StoreEnvironment? {
        environment.map(StoreEnvironment.init(raw:))
    }
}

extension JWSRenewalInfoDecodedPayload: SignedPayload {
    package var signedDateMillis: Int64? { signedDate }
    package var payloadBundleID: String? { nil }
    package static var namesBundle: Bool { false }
    package var payloadEnvironment: String? { environment }
}
