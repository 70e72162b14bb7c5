import ReconModel

/// An App Store Server Notification V2 whose `signedPayload` and the signed transaction and
/// renewal info inside it all verified.
public struct VerifiedNotification: Sendable, Hashable {
    /// `notificationUUID`: one notification, however often Apple retried it.
    public var uuid: String
    /// `notificationType`, raw (`REFUND`, `DID_RENEW`, ...).
    public var type: String
    /// `subtype`, raw, when the type has one.
    public var subtype: String?
    /// When the App Store signed the notification (epoch ms).
    public var signedDate: Int64
    public var environment: StoreEnvironment?
    public var bundleID: String?
    /// The signed transaction inside, verified.
    public var transaction: JWSTransactionDecodedPayload?
    /// The signed renewal info inside, verified.
    public var renewal: JWSRenewalInfoDecodedPayload?
    /// The JWS exactly as received.
    public var signedPayload: String
}
