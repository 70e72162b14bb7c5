/// Apple's word on one auto-renewable subscription, from Get All Subscription Statuses
/// (`GET /inApps/v1/subscriptions/{originalTransactionId}`,
/// https://developer.apple.com/documentation/appstoreserverapi/get-all-subscription-statuses): the `status` of its
/// latest transaction and what its verified `signedTransactionInfo` and `signedRenewalInfo` state.
public struct SubscriptionStatus: Sendable, Hashable {
    /// Apple's `status` (https://developer.apple.com/documentation/appstoreserverapi/status).
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        case active = 1
        case expired = 2
        case billingRetry = 3
        case billingGracePeriod = 4
        case revoked = 5

        /// The contract's word for it in `subscriptions.csv`.
        public var name: String {
            switch self {
            case .active: return "active"
            case .expired: return "expired"
            case .billingRetry: return "billing-retry"
            case .billingGracePeriod: return "billing-grace-period"
            case .revoked: return "revoked"
            }
        }
    }

    public var originalTransactionID: String
    public var environment: StoreEnvironment
    public var status: Code
    /// The product of the latest transaction.
    public var productID: String?
    /// The latest transaction's `expiresDate` (epoch ms).
    public var expiresDate: Int64?
    /// The renewal info's `gracePeriodExpiresDate` (epoch ms), in a billing grace period.
    public var gracePeriodExpiresDate: Int64?
    /// The renewal info's `autoRenewStatus`: true on, false off; nil when not stated.
    public var autoRenew: Bool?
    /// The latest transaction's `revocationDate` (epoch ms): refunded or revoked.
    public var revocationDate: Int64?
    /// The latest transaction's `price`: the latest period's price.
    public var price: Money?
    /// When the store learned it: the as-of of the run that asked Apple (epoch ms).
    public var learnedAt: Int64

    public init(
        originalTransactionID: String, environment: StoreEnvironment, status: Code, productID: String? = nil,
        expiresDate: Int64? = nil, gracePeriodExpiresDate: Int64? = nil, autoRenew: Bool? = nil,
        revocationDate: Int64? = nil, price: Money? = nil, learnedAt: Int64
    ) {
        self.originalTransactionID = originalTransactionID
        self.environment = environment
        self.status = status
        self.productID = productID
        self.expiresDate = expiresDate
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.autoRenew = autoRenew
        self.revocationDate = revocationDate
        self.price = price
        self.learnedAt = learnedAt
    }
}
