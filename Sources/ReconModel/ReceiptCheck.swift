/// What the offline decode concluded about a receipt, as verification needs it.
public struct ReceiptCheck: Sendable, Hashable {
    public var failure: ReceiptDecodingError?
    public var environment: StoreEnvironment?
    public var bundleID: String?
    public var signature: SignatureStatus
    public var transactionIDs: [String]

    package init(
        failure: ReceiptDecodingError? = nil, environment: StoreEnvironment? = nil, bundleID: String? = nil,
        signature: SignatureStatus, transactionIDs: [String]
    ) {
        self.failure = failure
        self.environment = environment
        self.bundleID = bundleID
        self.signature = signature
        self.transactionIDs = transactionIDs
    }
}
