import AppleData
import ReconModel

/// Receipts, their decoding, verifications and the evidence they revealed.
///
/// ``SQLReceipts`` keeps them in SQLite.
package protocol ReceiptRepository {
    @discardableResult
    func recordVerification(_ v: VerificationRecord, runID: Int64?, at time: Int64, learnedAt: Int64) throws -> Int64

    /// Verifications touching any of the given records, receipts or transactions, oldest first.
    func verifications(recordIDs: [String], receiptIDs: [String], transactionIDs: [String]) throws
        -> [StoredVerification]

    /// How many verifications from `source` are stored (for resume checks and run records).
    func verificationCount(source: EvidenceSource) throws(StoreError) -> Int

    /// Receipts never decoded, or imported again since their last decode, in id order, after
    /// `cursor` (the last id of the previous page): each receipt is offered once per pass, whatever
    /// the clocks say.
    func receiptsNeedingDecode(after cursor: String?, limit: Int) throws(StoreError) -> [UploadedReceipt]

    /// Stores a page of offline decodes in one transaction.
    func recordDecodes(_ decodes: [(UploadedReceipt, Result<ReceiptEvidence, ReceiptDecodingError>)], at time: Int64)
        throws

    /// Streams one ``ReceiptCase`` per uploaded receipt, in receipt-id order; with `learnedBy`, Apple's verdict is
    /// the latest the store had learned by then (`--as-of` as a cut-off).
    func forEachReceiptCase(learnedBy: Int64?, _ body: (ReceiptCase) throws -> Void) throws

    /// The receipts with these ids, with their offline checks.
    func receiptsForVerification(ids: [String]) throws -> [String: (UploadedReceipt, ReceiptCheck?)]

    /// One page of the receipts no ledger row names and Apple has not answered for yet (the
    /// purchases a backend may never have recorded, "I paid and got nothing"), in receipt-id
    /// order after `cursor`: memory stays at one page however many there are.
    func orphanReceiptsForVerification(after cursor: String?, limit: Int) throws -> [(UploadedReceipt, ReceiptCheck?)]

    /// How many receipts ``orphanReceiptsForVerification(after:limit:)`` will page through.
    func orphanReceiptCount() throws -> Int
}

extension SQLReceipts: ReceiptRepository {}

extension ReceiptRepository {
    /// Every receipt case, whenever it was learned.
    package func forEachReceiptCase(_ body: (ReceiptCase) throws -> Void) throws {
        try forEachReceiptCase(learnedBy: nil, body)
    }
}
