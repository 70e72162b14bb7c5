import Foundation

/// An App Store Server Notification V2 as Apple signs it: the `ResponseBodyV2DecodedPayload` claims with Apple's
/// field names (https://developer.apple.com/documentation/appstoreservernotifications/responsebodyv2decodedpayload).
///
/// The one encoding of a notification, for the tests and for the App Store simulator's notification history.
public struct NotificationBody: Encodable, Sendable, Hashable {
    /// The notification's `data`: the app, its environment, and the signed transaction and renewal info.
    public struct Payload: Encodable, Sendable, Hashable {
        /// The app's Apple id (Apple sends it in Production only).
        public var appAppleId: Int64?
        /// The app's bundle id.
        public var bundleId: String
        /// `Production` or `Sandbox`.
        public var environment: String
        /// The signed transaction (JWS).
        public var signedTransactionInfo: String?
        /// The signed renewal info (JWS) of an auto-renewable subscription.
        public var signedRenewalInfo: String?
        /// The subscription's status (1: active), when Apple states it.
        public var status: Int?
        /// Why the customer asked for a refund, in a `CONSUMPTION_REQUEST`.
        public var consumptionRequestReason: String? = nil

        /// A payload; absent fields are left out of the JSON.
        public init(
            appAppleId: Int64? = nil, bundleId: String, environment: String, signedTransactionInfo: String?,
            signedRenewalInfo: String? = nil, status: Int? = nil
        ) {
            self.appAppleId = appAppleId
            self.bundleId = bundleId
            self.environment = environment
            self.signedTransactionInfo = signedTransactionInfo
            self.signedRenewalInfo = signedRenewalInfo
            self.status = status
        }
    }

    /// Apple's `notificationType`, such as `ONE_TIME_CHARGE`.
    public var notificationType: String
    /// Apple's `subtype`, when the type has one.
    public var subtype: String?
    /// The notification's unique id.
    public var notificationUUID: String
    /// The app, environment and signed transaction.
    public var data: Payload
    /// The notification format version, `2.0`.
    public var version = "2.0"
    /// When Apple signed the notification, in milliseconds since 1970.
    public var signedDate: Int64

    /// A notification of `notificationType`.
    public init(
        notificationType: String, subtype: String? = nil, notificationUUID: String, data: Payload, signedDate: Int64
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.data = data
        self.signedDate = signedDate
    }

    /// The compact JWS Apple posts as `signedPayload`, signed by `authority`.
    public func signed(by authority: SigningAuthority) throws -> String {
        try JWSSigner.sign(payload: self, authority: authority)
    }
}
