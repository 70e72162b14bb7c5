import ReconModel

/// The external purchase token a notification is about (`EXTERNAL_PURCHASE_TOKEN`, Notifications 2.10), named as
/// Apple's `ExternalPurchaseToken`.
///
/// It carries no environment: a Sandbox token's `externalPurchaseId` starts with `SANDBOX_`.
/// See https://developer.apple.com/documentation/appstoreservernotifications/externalpurchasetoken
public struct ExternalPurchaseToken: Codable, Hashable, Sendable {
    /// The token's unique id (`SANDBOX_…` in Sandbox).
    public var externalPurchaseId: String?
    /// When the token was created (epoch ms).
    public var tokenCreationDate: Int64?
    /// The app's Apple id.
    public var appAppleId: Int64?
    /// The app's bundle id.
    public var bundleId: String?

    /// A token with the given members.
    public init(
        externalPurchaseId: String? = nil, tokenCreationDate: Int64? = nil, appAppleId: Int64? = nil,
        bundleId: String? = nil
    ) {
        self.externalPurchaseId = externalPurchaseId
        self.tokenCreationDate = tokenCreationDate
        self.appAppleId = appAppleId
        self.bundleId = bundleId
    }

    /// Decodes leniently.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        externalPurchaseId = try c.lenientString(.externalPurchaseId)
        tokenCreationDate = try c.lenientInt64(.tokenCreationDate)
        appAppleId = try c.lenientInt64(.appAppleId)
        bundleId = try c.lenientString(.bundleId)
    }

    /// The prefix of a Sandbox token's id.
    public static let sandboxPrefix = "SANDBOX_"

    /// `Sandbox` when the id starts with `SANDBOX_`, else `Production` (the token states no environment).
    public var environment: String {
        (externalPurchaseId ?? "").hasPrefix(Self.sandboxPrefix)
            ? StoreEnvironment.sandbox.rawValue : StoreEnvironment.production.rawValue
    }
}
