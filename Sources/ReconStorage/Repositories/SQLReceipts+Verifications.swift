import AppleData
import ReconModel

/// Verification results: persisted one by one, each in its own transaction, so a killed run
/// loses no completed verification and a rerun does not verify it again.
extension SQLReceipts {
    /// Stores a verification, the evidence it revealed, and its verdict on the rows it settles.
    ///
    /// - Parameters:
    ///   - time: when it was verified.
    ///   - learnedAt: when it counts as learned (``RunContext/learnedAt(_:)``: never after the run's as-of).
    /// - Returns: the verification's id.
    @discardableResult
    public func recordVerification(
        _ v: VerificationRecord, runID: Int64?, at time: Int64, learnedAt: Int64
    ) throws -> Int64 {
        try write {
            let id = try db.insert(
                """
                INSERT INTO verifications (record_id, receipt_id, transaction_id, source, endpoint, http_status,
                    apple_status, environment, bundle_id, outcome, detail, attempts, verified_at, run_id, learned_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
                """,
                [
                    .optionalText(v.recordIDs.first), .optionalText(v.receiptID), .optionalText(v.transactionID),
                    .text(v.source.rawValue), .optionalText(v.endpoint), .optionalInteger(v.httpStatus.map(Int64.init)),
                    .optionalInteger(v.appleStatus.map(Int64.init)), .optionalText(v.environment?.rawValue),
                    .optionalText(v.bundleID), .text(v.outcome.rawValue), .optionalText(v.detail),
                    .integer(Int64(v.attempts)), .integer(time), .optionalInteger(runID), .integer(learnedAt),
                ], returning: "id")
            if !v.entries.isEmpty {
                let writer = try EvidenceWriter(store: store)
                for entry in v.entries {
                    try writer.insert(
                        entry, source: v.source, receiptID: v.receiptID, verificationID: id, environment: v.environment,
                        bundleID: v.bundleID, signature: v.signature, appleStatus: v.appleStatus, at: time)
                }
            }
            if let verdict = v.verdict {
                let update = try db.prepare(
                    "UPDATE transactions SET recon_verdict = $1, recon_verification_id = $2 WHERE record_id = $3")
                for recordID in v.recordIDs {
                    try update.run([.text(verdict.rawValue), .integer(id), .text(recordID)])
                }
            }
            return id
        }
    }

    /// Verifications touching any of the given records, receipts or transactions, oldest first.
    public func verifications(recordIDs: [String], receiptIDs: [String], transactionIDs: [String]) throws
        -> [StoredVerification]
    {
        var result: [Int64: StoredVerification] = [:]
        let asked: [(condition: (String) -> String, values: [String])] = [
            ({ "record_id IN (\($0))" }, recordIDs), ({ "receipt_id IN (\($0))" }, receiptIDs),
            ({ "transaction_id IN (\($0))" }, transactionIDs),
        ]
        try db.forEachChunk(matching: asked) { condition, values in
            let stmt = try db.prepare("SELECT \(VerificationsRow.columns) FROM verifications WHERE \(condition)")
            try stmt.bind(values)
            while try stmt.step() {
                let row = VerificationsRow.stored(stmt)
                result[row.id] = row
            }
        }
        return result.values.sorted { ($0.verifiedAt, $0.id) < ($1.verifiedAt, $1.id) }
    }
}

extension SQLReceipts {
    /// How many verifications from `source` are stored (for resume checks and run records).
    public func verificationCount(source: EvidenceSource) throws(StoreError) -> Int {
        Int(try db.scalar("SELECT COUNT(*) FROM verifications WHERE source = $1", [.text(source.rawValue)]) ?? 0)
    }
}

/// A verification as the support lookup shows it.
public struct StoredVerification: Sendable, Hashable {
    public var id: Int64
    public var recordID: String?
    public var receiptID: String?
    public var transactionID: String?
    public var source: String
    public var endpoint: String?
    public var appleStatus: Int?
    public var environment: String?
    public var outcome: String
    public var detail: String?
    public var attempts: Int
    /// When it was stored, by the clock.
    public var verifiedAt: Int64
    /// When the run that stored it counts it as learned: never after that run's as-of (nil in a store written
    /// before runs recorded it).
    public var learnedAt: Int64?

    /// When the reports count it as known, as the timeline dates it.
    public var knownAt: Int64 { learnedAt ?? verifiedAt }
}
