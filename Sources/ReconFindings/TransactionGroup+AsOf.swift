import AppleData
import ReconModel
import ReconStorage

/// `--as-of` as a cut-off (CONTRACT §5): what was purchased, delivered, finished, refunded or learned
/// after it does not enter that report, so a report for a past day shows that day as it was.
extension LedgerTransaction {
    /// Whether everything the row says had happened by `asOf` (``asOf(_:)`` keeps it as it is).
    package func isWhole(asOf: Int64) -> Bool {
        purchaseDate <= asOf && (settledAt ?? asOf) <= asOf && (deliveredAt ?? asOf) <= asOf
            && (finishedAt ?? asOf) <= asOf
    }

    /// The row as of `asOf`: nil when it was purchased later; later deliveries and finishes
    /// had not happened yet.
    public func asOf(_ asOf: Int64) -> LedgerTransaction? {
        guard purchaseDate <= asOf else { return nil }
        var row = self
        // Our verification came later: the ledger's own word, still pending, is what was known.
        if let settled = settledAt, settled > asOf {
            row.verificationStatus = .pending
            row.settledAt = nil
        }
        if let delivered = deliveredAt, delivered > asOf { row.deliveredAt = nil }
        if let finished = finishedAt, finished > asOf { row.finishedAt = nil }
        return row
    }
}

extension EvidenceRecord {
    /// Whether everything the record says was known and had happened by `asOf` (``asOf(_:)``
    /// keeps it as it is).
    package func isWhole(asOf: Int64) -> Bool {
        (entry.purchaseDate ?? asOf) <= asOf && (learnedAt ?? asOf) <= asOf && (entry.cancellationDate ?? asOf) <= asOf
    }

    /// Apple's word as of `asOf`: nil for a purchase made later, or for what the store learned later (a
    /// verification, notification or history entry recorded after `asOf`); a refund or revocation dated later had
    /// not happened yet.
    public func asOf(_ asOf: Int64) -> EvidenceRecord? {
        if let purchased = entry.purchaseDate, purchased > asOf { return nil }
        if let learned = learnedAt, learned > asOf { return nil }
        var record = self
        if let cancelled = entry.cancellationDate, cancelled > asOf {
            record.entry.cancellationDate = nil
            record.entry.cancellationReason = nil
            record.entry.revocationType = nil
            record.entry.revocationPercentage = nil
            record.entry.isUpgraded = nil
        }
        return record
    }
}

extension TransactionGroup {
    /// The group as of `asOf` (see ``LedgerTransaction/asOf(_:)`` and ``EvidenceRecord/asOf(_:)``).
    public func asOf(_ asOf: Int64) -> TransactionGroup {
        // Nearly every group lies wholly before the cut-off: it is kept, not copied row by row.
        if records.allSatisfy({ $0.isWhole(asOf: asOf) }), evidence.allSatisfy({ $0.isWhole(asOf: asOf) }) {
            return self
        }
        return TransactionGroup(
            transactionID: transactionID, records: records.compactMap { $0.asOf(asOf) },
            evidence: evidence.compactMap { $0.asOf(asOf) })
    }
}

extension OriginalTransactionGroup {
    /// The group as of `asOf`.
    public func asOf(_ asOf: Int64) -> OriginalTransactionGroup {
        OriginalTransactionGroup(
            originalTransactionID: originalTransactionID, records: records.compactMap { $0.asOf(asOf) })
    }
}
