/// How one attempt to verify with Apple (or with a signature checked offline) ended.
public enum VerificationOutcome: String, Sendable, Hashable, CaseIterable {
    /// Apple says valid (status 0, a Server API answer, or a JWS checked offline).
    case valid
    /// Apple says invalid (21002/21003/21010), the signature is bad, or Apple has no such purchase.
    case invalid
    /// Apple could not be reached within the retry budget: the transaction stays pending.
    case unreachable
    /// Nothing could be tried (no receipt and no Server API credentials, a configuration
    /// problem): stays pending, with the reason.
    case skipped
}

/// One verification, with everything Apple's answer revealed, persisted as it completes.
public struct VerificationRecord: Sendable, Hashable {
    /// The ledger rows this verification settles (they get its verdict).
    public var recordIDs: [String]
    public var receiptID: String?
    /// The transaction looked for.
    public var transactionID: String?
    public var source: EvidenceSource
    /// The URL that gave the final answer (never with credentials).
    public var endpoint: String?
    public var httpStatus: Int?
    /// verifyReceipt `status`, or the Server API error code.
    public var appleStatus: Int?
    /// The environment Apple's answer stated.
    public var environment: StoreEnvironment?
    public var bundleID: String?
    public var outcome: VerificationOutcome
    /// One line: why, in words.
    public var detail: String?
    public var attempts: Int
    /// Every purchase the answer revealed (all `in_app` and `latest_receipt_info` entries).
    public var entries: [EvidenceEntry]
    public var signature: SignatureStatus

    public init(
        recordIDs: [String], receiptID: String? = nil, transactionID: String? = nil, source: EvidenceSource,
        endpoint: String? = nil, httpStatus: Int? = nil, appleStatus: Int? = nil, environment: StoreEnvironment? = nil,
        bundleID: String? = nil, outcome: VerificationOutcome, detail: String? = nil, attempts: Int = 1,
        entries: [EvidenceEntry] = [], signature: SignatureStatus = .notChecked
    ) {
        self.recordIDs = recordIDs
        self.receiptID = receiptID
        self.transactionID = transactionID
        self.source = source
        self.endpoint = endpoint
        self.httpStatus = httpStatus
        self.appleStatus = appleStatus
        self.environment = environment
        self.bundleID = bundleID
        self.outcome = outcome
        self.detail = detail
        self.attempts = attempts
        self.entries = entries
        self.signature = signature
    }

    /// The ledger status this outcome settles a pending row to, or nil (stays pending).
    public var verdict: VerificationStatus? {
        switch outcome {
        case .valid: return .verified
        case .invalid: return .invalid
        case .unreachable, .skipped: return nil
        }
    }
}
