/// The app a notification without a transaction is about (`RESCIND_CONSENT`, Notifications 2.19), named as Apple's
/// `AppData`: its `signedAppTransactionInfo` is a JWS of its own, verified like any other.
/// See https://developer.apple.com/documentation/appstoreservernotifications/appdata
public struct AppData: Codable, Hashable, Sendable {
    /// The app's Apple id.
    public var appAppleId: Int64?
    /// The app's bundle id.
    public var bundleId: String?
    /// Raw environment: `Production`, `Sandbox`, `Xcode`, `LocalTesting`.
    public var environment: String?
    /// The app transaction (JWS).
    public var signedAppTransactionInfo: String?

    /// App data with the given members.
    public init(
        appAppleId: Int64? = nil, bundleId: String? = nil, environment: String? = nil,
        signedAppTransactionInfo: String? = nil
    ) {
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.environment = environment
        self.signedAppTransactionInfo = signedAppTransactionInfo
    }

    /// Decodes leniently.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        appAppleId = try c.lenientInt64(.appAppleId)
        bundleId = try c.lenientString(.bundleId)
        environment = try c.lenientString(.environment)
        signedAppTransactionInfo = try c.lenientString(.signedAppTransactionInfo)
    }
}
