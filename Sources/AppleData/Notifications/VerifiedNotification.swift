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
    /// `data.consumptionRequestReason`, raw, of a `CONSUMPTION_REQUEST`.
    public var consumptionRequestReason: String? = nil
    /// The external purchase token of an `EXTERNAL_PURCHASE_TOKEN`.
    public var externalPurchaseToken: ExternalPurchaseToken? = nil
    /// `appData.signedAppTransactionInfo`, verified.
    public var appTransaction: AppTransaction? = nil

    /// The Apple Account's `appTransactionId` in this app, from whichever part of the notification states it.
    public var appTransactionID: String? {
        appTransaction?.appTransactionId ?? transaction?.appTransactionId ?? renewal?.appTransactionId
    }
}
