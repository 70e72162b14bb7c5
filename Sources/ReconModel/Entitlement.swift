/// What the backend grants for one subscription (CONTRACT §1.8): a user's access under one Apple original
/// transaction id, and when the backend ends it.
public struct Entitlement: Sendable, Hashable {
    /// The account that has access.
    public var userID: String
    /// The subscription, by Apple's original transaction id.
    public var originalTransactionID: String
    /// The subscription product the backend grants.
    public var productID: String
    /// When the backend's access ends, as it stands now (epoch ms).
    public var expiresAt: Int64
    /// What the backend believes; `Production` by default.
    public var environment: StoreEnvironment
    /// When the backend last changed the row (epoch ms).
    public var updatedAt: Int64?

    public init(
        userID: String, originalTransactionID: String, productID: String, expiresAt: Int64,
        environment: StoreEnvironment = .production, updatedAt: Int64? = nil
    ) {
        self.userID = userID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.expiresAt = expiresAt
        self.environment = environment
        self.updatedAt = updatedAt
    }
}
