import Foundation

/// How one auto-renewable subscription of the seed renews: its periods are the seed's transactions under its
/// original transaction id (a renewal is one more transaction); this says what the transactions cannot.
///
/// Timestamps are epoch milliseconds or ISO 8601 strings with an offset. Apple's words: the renewal info's
/// `autoRenewStatus`, `isInBillingRetryPeriod` and `gracePeriodExpiresDate`
/// (https://developer.apple.com/documentation/appstoreserverapi/jwsrenewalinfodecodedpayload) and the subscription
/// `status` (https://developer.apple.com/documentation/appstoreserverapi/status).
public struct SimulatorSubscription: Codable, Sendable, Hashable {
    /// The subscription: its `originalTransactionId`.
    public var originalTransactionId: String
    /// `subscriptionGroupIdentifier`; default `20000000`.
    public var subscriptionGroupIdentifier: String?
    /// When the customer turned auto-renew off: from then the renewal info says `autoRenewStatus` 0, and a period
    /// that ends after it is not renewed (expired, `expirationIntent` 1).
    public var autoRenewOffDate: Int64?
    /// When the billing grace period ends: after a period ends without a renewal, the subscription is in its billing
    /// grace period (status 4) until then.
    public var gracePeriodExpiresDate: Int64?
    /// When Apple stops retrying billing: after a period ends without a renewal (and after any grace period), the
    /// subscription is in billing retry (status 3) until then, and expired (`expirationIntent` 2) after it.
    public var billingRetryEndDate: Int64?

    /// Creates a subscription's renewal state.
    public init(
        originalTransactionId: String, subscriptionGroupIdentifier: String? = nil, autoRenewOffDate: Int64? = nil,
        gracePeriodExpiresDate: Int64? = nil, billingRetryEndDate: Int64? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.autoRenewOffDate = autoRenewOffDate
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.billingRetryEndDate = billingRetryEndDate
    }

    private enum CodingKeys: String, CodingKey {
        case originalTransactionId, subscriptionGroupIdentifier, autoRenewOffDate, gracePeriodExpiresDate
        case billingRetryEndDate
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        originalTransactionId = try c.decodeIDString(.originalTransactionId)
        subscriptionGroupIdentifier = try c.decodeIDStringIfPresent(.subscriptionGroupIdentifier)
        autoRenewOffDate = try c.decodeTimestampIfPresent(.autoRenewOffDate)
        gracePeriodExpiresDate = try c.decodeTimestampIfPresent(.gracePeriodExpiresDate)
        billingRetryEndDate = try c.decodeTimestampIfPresent(.billingRetryEndDate)
    }

    /// The group id Apple would name, defaulted.
    public var groupID: String { subscriptionGroupIdentifier ?? "20000000" }
}
