import Foundation

/// One piece of evidence about a transaction, with the facts of the receipt or answer it came from.
///
/// Built by the store from `evidence` joined with `receipt_checks`/`verifications`.
public struct EvidenceRecord: Sendable, Hashable {
    public var entry: EvidenceEntry
    public var source: EvidenceSource
    /// The uploaded receipt the entry was read from (nil for Server API answers by id).
    public var receiptID: String?
    public var receiptFormat: ReceiptFormat?
    /// The environment the receipt or answer states as a whole (iOS 6 `environment`, app
    /// receipt type, verifyReceipt `environment`), when it states one.
    public var environment: StoreEnvironment?
    /// The bundle id the receipt or answer states as a whole.
    public var bundleID: String?
    public var signature: SignatureStatus
    /// The verifyReceipt status Apple answered with (0, 21007, 21008, ...), if this came from
    /// verifyReceipt.
    public var appleStatus: Int?
    /// The user who uploaded the receipt.
    public var uploaderUserID: String?
    /// Epoch ms when the evidence was recorded.
    public var recordedAt: Int64
    /// When the store learned it (a verification's or notification's learning time: the as-of of the run that
    /// learned it, else the wall clock); nil for what a receipt itself holds.
    public var learnedAt: Int64? = nil

    public init(
        entry: EvidenceEntry, source: EvidenceSource, receiptID: String? = nil,
        receiptFormat: ReceiptFormat? = nil, environment: StoreEnvironment? = nil,
        bundleID: String? = nil, signature: SignatureStatus = .notChecked, appleStatus: Int? = nil,
        uploaderUserID: String? = nil, recordedAt: Int64 = 0
    ) {
        self.entry = entry
        self.source = source
        self.receiptID = receiptID
        self.receiptFormat = receiptFormat
        self.environment = environment
        self.bundleID = bundleID
        self.signature = signature
        self.appleStatus = appleStatus
        self.uploaderUserID = uploaderUserID
        self.recordedAt = recordedAt
    }

    /// The environment this evidence puts the purchase in: the entry's own, else the whole
    /// receipt's, else what Apple's status code implies (21007: Sandbox, 21008: Production).
    public var effectiveEnvironment: StoreEnvironment? {
        if let own = entry.environment { return own }
        if let whole = environment { return whole }
        return VerifyReceiptStatus.environment(impliedBy: appleStatus)
    }
}

/// Everything known about one Apple transaction id: the ledger rows that name it and every piece of evidence that
/// names it.
///
/// Detectors see one group at a time (the store streams them in transaction-id order), so detection needs memory
/// for one group, not the whole ledger.
public struct TransactionGroup: Sendable, Hashable {
    public var transactionID: String
    /// Ledger rows with this transaction id, in record-id order.
    public var records: [LedgerTransaction]
    /// Evidence entries with this transaction id, in a stable order.
    public var evidence: [EvidenceRecord]

    public init(transactionID: String, records: [LedgerTransaction], evidence: [EvidenceRecord]) {
        self.transactionID = transactionID
        self.records = records
        self.evidence = evidence
    }
}

/// Ledger rows sharing one original transaction id (second pass, original-id order).
///
/// Only groups with at least two rows are formed.
public struct OriginalTransactionGroup: Sendable, Hashable {
    public var originalTransactionID: String
    public var records: [LedgerTransaction]

    public init(originalTransactionID: String, records: [LedgerTransaction]) {
        self.originalTransactionID = originalTransactionID
        self.records = records
    }
}

/// What was concluded about one uploaded receipt: its offline decode and Apple's latest answer.
public struct ReceiptCase: Sendable, Hashable {
    public var receipt: ReceiptHeader
    /// Offline decode: nil if it decoded, else why not.
    public var decodeFailure: ReceiptDecodingError?
    /// What the offline decode said as a whole (environment, bundle, signature, receipt type).
    public var decoded: ReceiptEvidence?
    /// Apple's latest verifyReceipt status for it, if it was asked (0, 21002, 21007, ...).
    public var appleStatus: Int?
    /// The environment Apple's answer stated.
    public var appleEnvironment: StoreEnvironment?
    /// Ledger rows whose `receipt_id` is this receipt.
    public var records: [LedgerTransaction]

    public init(
        receipt: ReceiptHeader, decodeFailure: ReceiptDecodingError? = nil, decoded: ReceiptEvidence? = nil,
        appleStatus: Int? = nil, appleEnvironment: StoreEnvironment? = nil, records: [LedgerTransaction] = []
    ) {
        self.receipt = receipt
        self.decodeFailure = decodeFailure
        self.decoded = decoded
        self.appleStatus = appleStatus
        self.appleEnvironment = appleEnvironment
        self.records = records
    }
}

/// An uploaded receipt without its payload (detectors never need the bytes).
public struct ReceiptHeader: Sendable, Hashable {
    public var receiptID: String
    public var userID: String?
    public var receivedAt: Int64?
    public var format: ReceiptFormat
    public var claimedEnvironment: StoreEnvironment?

    public init(
        receiptID: String, userID: String? = nil, receivedAt: Int64? = nil, format: ReceiptFormat,
        claimedEnvironment: StoreEnvironment? = nil
    ) {
        self.receiptID = receiptID
        self.userID = userID
        self.receivedAt = receivedAt
        self.format = format
        self.claimedEnvironment = claimedEnvironment
    }
}
