import ReconModel

/// A signed app transaction's claims (the app's download by one Apple Account), named as Apple's
/// `JWSAppTransactionDecodedPayload` / `AppTransaction`.
///
/// `appTransactionId` is one per Apple Account and app: every transaction of that account in the app carries it
/// (App Store Server API 1.15). `receiptType` is the environment.
/// See https://developer.apple.com/documentation/appstoreserverapi/jwsapptransactiondecodedpayload
public struct AppTransaction: Codable, Hashable, Sendable {
    /// Raw environment: `Production`, `Sandbox`, `Xcode`, `LocalTesting`.
    public var receiptType: String?
    /// The app's Apple id.
    public var appAppleId: Int64?
    /// The app's bundle id.
    public var bundleId: String?
    /// The app version.
    public var applicationVersion: String?
    /// The version's external identifier.
    public var versionExternalIdentifier: Int64?
    /// When the App Store signed the app transaction (epoch ms).
    public var receiptCreationDate: Int64?
    /// When the Apple Account first got the app (epoch ms).
    public var originalPurchaseDate: Int64?
    /// The version first got.
    public var originalApplicationVersion: String?
    /// A device-verification value.
    public var deviceVerification: String?
    /// The nonce of the device verification.
    public var deviceVerificationNonce: String?
    /// When the app was pre-ordered (epoch ms).
    public var preorderDate: Int64?
    /// The app transaction id: one per Apple Account and app.
    public var appTransactionId: String?
    /// Raw platform of the first download (`iOS`, `macOS`, …).
    public var originalPlatform: String?
    /// When it was signed (epoch ms), where stated.
    public var signedDate: Int64?

    /// An app transaction with the given members.
    public init(
        receiptType: String? = nil, appAppleId: Int64? = nil, bundleId: String? = nil,
        receiptCreationDate: Int64? = nil,
        originalPurchaseDate: Int64? = nil, appTransactionId: String? = nil, signedDate: Int64? = nil
    ) {
        self.receiptType = receiptType
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.receiptCreationDate = receiptCreationDate
        self.originalPurchaseDate = originalPurchaseDate
        self.appTransactionId = appTransactionId
        self.signedDate = signedDate
    }

    /// Decodes leniently.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        receiptType = try c.lenientString(.receiptType)
        appAppleId = try c.lenientInt64(.appAppleId)
        bundleId = try c.lenientString(.bundleId)
        applicationVersion = try c.lenientString(.applicationVersion)
        versionExternalIdentifier = try c.lenientInt64(.versionExternalIdentifier)
        receiptCreationDate = try c.lenientInt64(.receiptCreationDate)
        originalPurchaseDate = try c.lenientInt64(.originalPurchaseDate)
        originalApplicationVersion = try c.lenientString(.originalApplicationVersion)
        deviceVerification = try c.lenientString(.deviceVerification)
        deviceVerificationNonce = try c.lenientString(.deviceVerificationNonce)
        preorderDate = try c.lenientInt64(.preorderDate)
        appTransactionId = try c.lenientString(.appTransactionId)
        originalPlatform = try c.lenientString(.originalPlatform)
        signedDate = try c.lenientInt64(.signedDate)
    }
}

extension AppTransaction: SignedPayload {
    /// The chain is checked at `signedDate`, else at the receipt's creation date.
    package var signedDateMillis: Int64? { signedDate ?? receiptCreationDate }
    package var payloadBundleID: String? { bundleId }
    package var payloadEnvironment: String? { receiptType }
}
