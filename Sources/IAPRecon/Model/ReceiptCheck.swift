/// What the offline decode concluded about a receipt, as verification needs it.
public struct ReceiptCheck: Sendable, Hashable {
    public var failure: ReceiptDecodingError?
    public var environment: StoreEnvironment?
    public var bundleID: String?
    public var signature: SignatureStatus
    public var transactionIDs: [String]
}
