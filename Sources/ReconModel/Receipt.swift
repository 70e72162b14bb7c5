/// The three receipt payloads clients upload (CONTRACT §1.2).
public enum ReceiptFormat: String, Sendable, Hashable, CaseIterable {
    /// Base64 PKCS#7 app receipt (iOS 7+).
    case appReceipt = "app-receipt"
    /// Base64 iOS 6 `SKPaymentTransaction.transactionReceipt` (old-style plist text).
    case transactionReceipt = "transaction-receipt"
    /// StoreKit 2 JWS compact string.
    case signedTransaction = "signed-transaction"
}

/// A raw receipt as uploaded by a client.
public struct UploadedReceipt: Sendable, Hashable {
    public var receiptID: String
    public var userID: String?
    public var receivedAt: Int64?
    public var format: ReceiptFormat
    /// The payload exactly as uploaded.
    ///
    /// Never logged.
    public var data: String
    public var claimedEnvironment: StoreEnvironment?

    public init(
        receiptID: String, userID: String? = nil, receivedAt: Int64? = nil, format: ReceiptFormat,
        data: String, claimedEnvironment: StoreEnvironment? = nil
    ) {
        self.receiptID = receiptID
        self.userID = userID
        self.receivedAt = receivedAt
        self.format = format
        self.data = data
        self.claimedEnvironment = claimedEnvironment
    }
}
