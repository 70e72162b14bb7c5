import AppleData
import Foundation
import ReconModel

/// Offline receipt checks and the per-receipt stream for detection.
extension SQLReceipts {
    /// Receipts never decoded, or imported again since their last decode, in id order, after
    /// `cursor` (the last id of the previous page): each receipt is offered once per pass, whatever
    /// the clocks say.
    public func receiptsNeedingDecode(after cursor: String?, limit: Int) throws(StoreError) -> [UploadedReceipt] {
        let stmt = try db.prepare(
            """
            SELECT \(ReceiptsRow.uploadColumns)
            FROM receipts r LEFT JOIN receipt_checks c ON c.receipt_id = r.receipt_id
            WHERE r.receipt_id > $1 AND (c.receipt_id IS NULL OR c.checked_at < r.imported_at)
            ORDER BY r.receipt_id NULLS FIRST LIMIT $2
            """)
        try stmt.bind([.text(cursor ?? ""), .integer(Int64(limit))])
        var receipts: [UploadedReceipt] = []
        while try stmt.step() { receipts.append(try ReceiptsRow.upload(stmt)) }
        return receipts
    }

    /// Stores a page of offline decodes in one transaction.
    public func recordDecodes(
        _ decodes: [(UploadedReceipt, Result<ReceiptEvidence, ReceiptDecodingError>)], at time: Int64
    ) throws {
        try write {
            let upsert = try db.prepare(
                RowInsert(
                    into: "receipt_checks",
                    [
                        "receipt_id", "status", "reason", "environment", "receipt_type", "bundle_id", "app_version",
                        "original_app_version", "creation_date", "signature", "signature_detail", "data_sha256",
                        "checked_at",
                    ],
                    onConflict: .update(
                        target: ["receipt_id"],
                        set:
                            "status = excluded.status, reason = excluded.reason, environment = excluded.environment, receipt_type = excluded.receipt_type, bundle_id = excluded.bundle_id, app_version = excluded.app_version, original_app_version = excluded.original_app_version, creation_date = excluded.creation_date, signature = excluded.signature, signature_detail = excluded.signature_detail, data_sha256 = excluded.data_sha256, checked_at = excluded.checked_at"
                    )))
            let writer = try EvidenceWriter(store: store)
            let ids = decodes.map(\.0.receiptID)
            try db.forEachChunk(of: ids) { marks, values throws(StoreError) in
                try db.prepare("DELETE FROM evidence WHERE receipt_id IN (\(marks)) AND source = 'offline'")
                    .run(values)
            }
            for (receipt, result) in decodes {
                let hash = ReceiptDigest.sha256Hex(receipt.data)
                switch result {
                case .failure(let error):
                    try upsert.run([
                        .text(receipt.receiptID), .text(error.kind.rawValue), .text(error.reason), .null, .null, .null,
                        .null,
                        .null, .null,
                        .text(
                            error.kind == .malformed
                                ? SignatureStatus.notChecked.rawValue : SignatureStatus.invalid.rawValue),
                        .text(error.reason), .text(hash), .integer(time),
                    ])
                case .success(let evidence):
                    try upsert.run([
                        .text(receipt.receiptID), .text(ReceiptChecksRow.decodedStatus), .null,
                        .optionalText(evidence.environment?.rawValue),
                        .optionalText(evidence.receiptType), .optionalText(evidence.bundleID),
                        .optionalText(evidence.appVersion), .optionalText(evidence.originalAppVersion),
                        .optionalInteger(evidence.creationDate), .text(evidence.signature.rawValue),
                        .optionalText(evidence.signatureDetail), .text(hash), .integer(time),
                    ])
                    for entry in evidence.entries {
                        try writer.insert(
                            entry, source: .offline, receiptID: receipt.receiptID, verificationID: nil,
                            environment: evidence.environment, bundleID: evidence.bundleID,
                            signature: evidence.signature,
                            appleStatus: nil, at: time)
                    }
                }
            }
            if db.isCitus {
                // What the receipt checks' trigger notes elsewhere (``CitusLayout/referenceTriggers``).
                try db.forEachChunk(of: ids) { marks, values throws(StoreError) in
                    try db.prepare(
                        """
                        INSERT INTO dirty_transactions (transaction_id, original_transaction_id)
                        SELECT DISTINCT e.transaction_id, e.group_original_transaction_id FROM evidence e
                        WHERE e.receipt_id IN (\(marks)) AND EXISTS (SELECT 1 FROM detection_state)
                        ON CONFLICT DO NOTHING
                        """
                    ).run(values)
                }
            }
        }
    }

    /// Streams one ``ReceiptCase`` per uploaded receipt, in receipt-id order; with `learnedBy`, Apple's verdict is
    /// the latest the store had learned by then (`--as-of` as a cut-off).
    public func forEachReceiptCase(learnedBy: Int64? = nil, _ body: (ReceiptCase) throws -> Void) throws {
        let receipts = try db.prepare(
            """
            SELECT \(ReceiptsRow.headerColumns), \(ReceiptChecksRow.columns),
                v.apple_status AS apple_status, v.environment AS apple_environment
            FROM receipts r LEFT JOIN receipt_checks c ON c.receipt_id = r.receipt_id
            LEFT JOIN verifications v ON v.id = (
                SELECT latest.id FROM verifications latest WHERE latest.receipt_id = r.receipt_id
                    AND latest.source = 'verifyReceipt' AND latest.apple_status IS NOT NULL
                    AND ($1 IS NULL OR COALESCE(latest.learned_at, latest.verified_at) <= $1)
                ORDER BY latest.id DESC LIMIT 1)
            ORDER BY r.receipt_id NULLS FIRST
            """)
        try receipts.bind([.optionalInteger(learnedBy)])
        // Offline entries, merged in receipt order like the ledger rows below (no query per receipt).
        let entries = try db.prepare(
            """
            SELECT \(EvidenceRow.columns) FROM evidence e LEFT JOIN receipts r ON r.receipt_id = e.receipt_id
            WHERE e.receipt_id IS NOT NULL AND e.source = 'offline' ORDER BY e.receipt_id NULLS FIRST, e.id
            """)
        var nextEntry: EvidenceRecord? = try entries.step() ? EvidenceRow.read(entries) : nil
        let records = try db.prepare(
            "SELECT \(TransactionsRow.columns) FROM transactions WHERE receipt_id IS NOT NULL ORDER BY receipt_id NULLS FIRST, record_id NULLS FIRST"
        )
        var recordReader = TransactionsRow.Reader()
        var nextRecord: LedgerTransaction? = try records.step() ? recordReader.read(records) : nil
        while try receipts.step() {
            let summary = try ReceiptsRow.header(receipts)
            let id = summary.receiptID
            var decodeFailure: ReceiptDecodingError?
            var decoded: ReceiptEvidence?
            switch try ReceiptChecksRow.outcome(receipts) {
            case nil: break
            case .success?:
                decoded = try ReceiptChecksRow.decoded(receipts, format: summary.format)
            case .failure(let error)?:
                decodeFailure = error
            }
            while let entry = nextEntry, entry.receiptID ?? "" < id {
                nextEntry = try entries.step() ? EvidenceRow.read(entries) : nil
            }
            while let entry = nextEntry, entry.receiptID == id {
                decoded?.entries.append(entry.entry)
                nextEntry = try entries.step() ? EvidenceRow.read(entries) : nil
            }
            while let record = nextRecord, record.receiptID ?? "" < id {
                nextRecord = try records.step() ? recordReader.read(records) : nil
            }
            var rows: [LedgerTransaction] = []
            while let record = nextRecord, record.receiptID == id {
                rows.append(record)
                nextRecord = try records.step() ? recordReader.read(records) : nil
            }
            try body(
                ReceiptCase(
                    receipt: summary, decodeFailure: decodeFailure, decoded: decoded,
                    appleStatus: receipts.optionalInt64(receipts.index(of: "apple_status")).map { Int($0) },
                    appleEnvironment: receipts.optionalText(receipts.index(of: "apple_environment"))
                        .map(StoreEnvironment.init(raw:)),
                    records: rows))
        }
    }
}

/// Prepared inserts of evidence entries.
package final class EvidenceWriter {
    private let insert: any StoreStatement
    /// What an entry says beyond the evidence table: its app transaction id and commitment.
    private let appleWord: AppleWordEvidenceWriter

    package init(store: ReconStore) throws(StoreError) {
        appleWord = try AppleWordEvidenceWriter(store: store)
        insert = try store.db.prepare(
            RowInsert(
                into: "evidence",
                [
                    "source", "receipt_id", "verification_id", "transaction_id", "original_transaction_id",
                    "product_id", "quantity", "purchase_date", "original_purchase_date", "expires_date",
                    "cancellation_date", "cancellation_reason", "revocation_type", "revocation_percentage",
                    "web_order_line_item_id", "price_milli", "currency", "storefront", "product_type",
                    "entry_environment", "entry_bundle_id", "app_account_token", "in_app_ownership_type", "environment",
                    "bundle_id", "signature", "apple_status", "recorded_at", "signed_date", "is_upgraded",
                    "is_trial_period", "is_in_intro_offer_period", "offer_type", "offer_discount_type",
                    "receipt_creation_date", "group_original_transaction_id",
                ]))
    }

    package func insert(
        _ e: EvidenceEntry, source: EvidenceSource, receiptID: String?, verificationID: Int64?,
        environment: StoreEnvironment?, bundleID: String?, signature: SignatureStatus, appleStatus: Int?, at time: Int64
    ) throws(StoreError) {
        try insert.run([
            .text(source.rawValue), .optionalText(receiptID), .optionalInteger(verificationID), .text(e.transactionID),
            .optionalText(e.originalTransactionID), .optionalText(e.productID),
            .optionalInteger(e.quantity.map(Int64.init)),
            .optionalInteger(e.purchaseDate), .optionalInteger(e.originalPurchaseDate), .optionalInteger(e.expiresDate),
            .optionalInteger(e.cancellationDate), .optionalText(e.cancellationReason), .optionalText(e.revocationType),
            .optionalInteger(e.revocationPercentage.map(Int64.init)), .optionalText(e.webOrderLineItemID),
            .optionalInteger(e.price?.milliunits), .optionalText(e.price?.currency), .optionalText(e.storefront),
            .optionalText(e.productType), .optionalText(e.environment?.rawValue), .optionalText(e.bundleID),
            .optionalText(e.appAccountToken), .optionalText(e.inAppOwnershipType), .optionalText(environment?.rawValue),
            .optionalText(bundleID), .text(signature.rawValue), .optionalInteger(appleStatus.map(Int64.init)),
            .integer(time),
            .optionalInteger(e.signedDate), .optionalInteger(e.isUpgraded.map { $0 ? 1 : 0 }),
            .optionalInteger(e.isTrialPeriod.map { $0 ? 1 : 0 }),
            .optionalInteger(e.isInIntroOfferPeriod.map { $0 ? 1 : 0 }),
            .optionalInteger(e.offerType.map(Int64.init)), .optionalText(e.offerDiscountType),
            .optionalInteger(e.receiptCreationDate),
            // The key it is distributed by (``Schema/distributionKeys``): Apple's original transaction id, else its
            // own transaction id, which Apple's is for a purchase neither restored nor renewed.
            .text(e.originalTransactionID ?? e.transactionID),
        ])
        try appleWord.insert(e, environment: environment, verificationID: verificationID, at: time)
    }
}

@available(*, unavailable)
extension EvidenceWriter: Sendable {}

/// Receipts as verification needs them.
extension SQLReceipts {
    private static let checkColumns = "\(ReceiptsRow.uploadColumns), \(ReceiptChecksRow.columns)"

    /// A receipt and its offline check, with the transaction ids decoded from it (``offlineTransactionIDs(of:)``).
    private static func receiptAndCheck(_ s: any StoreStatement, decoded: [String: [String]]) throws(StoreError) -> (
        UploadedReceipt, ReceiptCheck?
    ) {
        let receipt = try ReceiptsRow.upload(s)
        var check = try ReceiptChecksRow.check(s)
        check?.transactionIDs = decoded[receipt.receiptID] ?? []
        return (receipt, check)
    }

    /// The transaction ids decoded offline from each of these receipts, in the order they were stored: one query for
    /// a page of receipts (Citus plans no correlated subquery on the distributed evidence from the receipts, a
    /// reference table).
    private func offlineTransactionIDs(of receiptIDs: [String]) throws(StoreError) -> [String: [String]] {
        var decoded: [String: [String]] = [:]
        try db.forEachChunk(of: receiptIDs) { marks, values throws(StoreError) in
            let stmt = try db.prepare(
                """
                SELECT receipt_id, transaction_id FROM evidence
                WHERE receipt_id IN (\(marks)) AND source = 'offline' ORDER BY receipt_id NULLS FIRST, id
                """)
            try stmt.bind(values)
            while try stmt.step() { decoded[stmt.text(0), default: []].append(stmt.text(1)) }
        }
        return decoded
    }

    /// The receipts with these ids, with their offline checks.
    package func receiptsForVerification(ids: [String]) throws -> [String: (UploadedReceipt, ReceiptCheck?)] {
        let stmt = try db.prepare(
            "SELECT \(Self.checkColumns) FROM receipts r LEFT JOIN receipt_checks c ON c.receipt_id = r.receipt_id WHERE r.receipt_id = $1"
        )
        let decoded = try offlineTransactionIDs(of: ids)
        var result: [String: (UploadedReceipt, ReceiptCheck?)] = [:]
        for id in ids {
            try stmt.bind([.text(id)])
            if try stmt.step() { result[id] = try Self.receiptAndCheck(stmt, decoded: decoded) }
        }
        return result
    }

    /// The join and condition on `receipts r` of an orphan: an app or iOS 6 receipt that no ledger row
    /// names and that Apple has not answered for yet.
    ///
    /// The ledger side is an anti-join (`LEFT JOIN … IS NULL`), not a correlated `NOT EXISTS`: Citus plans no
    /// correlated subquery on a distributed table from a reference table, and SQLite probes the same index either way.
    private static let orphanJoin = "LEFT JOIN transactions orphan_t ON orphan_t.receipt_id = r.receipt_id"
    private static let orphanCondition = """
        r.format IN ('app-receipt', 'transaction-receipt')
            AND orphan_t.receipt_id IS NULL
            AND NOT EXISTS (SELECT 1 FROM verifications v WHERE v.receipt_id = r.receipt_id AND v.outcome IN ('valid', 'invalid'))
        """

    /// One page of the receipts no ledger row names and Apple has not answered for yet (the
    /// purchases a backend may never have recorded, "I paid and got nothing"), in receipt-id
    /// order after `cursor`: memory stays at one page however many there are.
    package func orphanReceiptsForVerification(after cursor: String?, limit: Int) throws -> [(
        UploadedReceipt, ReceiptCheck?
    )] {
        let stmt = try db.prepare(
            """
            SELECT \(Self.checkColumns) FROM receipts r LEFT JOIN receipt_checks c ON c.receipt_id = r.receipt_id
            \(Self.orphanJoin)
            WHERE r.receipt_id > $1 AND \(Self.orphanCondition)
            ORDER BY r.receipt_id NULLS FIRST LIMIT $2
            """)
        try stmt.bind([.text(cursor ?? ""), .integer(Int64(limit))])
        var page: [(UploadedReceipt, ReceiptCheck?)] = []
        while try stmt.step() { page.append(try Self.receiptAndCheck(stmt, decoded: [:])) }
        let decoded = try offlineTransactionIDs(of: page.map(\.0.receiptID))
        return page.map { receipt, check in
            var check = check
            check?.transactionIDs = decoded[receipt.receiptID] ?? []
            return (receipt, check)
        }
    }

    /// How many receipts ``orphanReceiptsForVerification(after:limit:)`` will page through.
    package func orphanReceiptCount() throws -> Int {
        Int(try db.scalar("SELECT COUNT(*) FROM receipts r \(Self.orphanJoin) WHERE \(Self.orphanCondition)") ?? 0)
    }
}
