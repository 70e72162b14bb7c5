import AppleData
import ReconModel

/// Prepared upsert statements for one import, reused for every row.
package final class SQLLedgerWriter {
    package let store: ReconStore
    /// A bulk load of an empty ledger: rows are appended (no unique index yet), nothing compared.
    private let bulk: Bool
    private var transactionStatement: (any StoreStatement)?
    private let upsertReceipt: any StoreStatement
    private let upsertProduct: any StoreStatement
    private let insertRejection: any StoreStatement
    /// Prepared on the first entitlement row (``upsert(_:source:line:)-entitlement``).
    package var entitlementStatement: (any StoreStatement)?
    package let now: Int64
    /// The rows stored unchanged already (none in a bulk load: the ledger was empty).
    private let unchanged: UnchangedLedgerRows
    /// Ledger rows found stored unchanged (at their line, or under another line or file name), and not written again.
    package var skipped: Int { unchanged.skipped }
    /// Notes each ledger row written until ``settleMoves()`` (prepared on the first).
    var noteWritten: (any StoreStatement)?
    /// Whether a row was noted since the last ``settleMoves()``.
    var notedSinceSettled = false
    /// Whether a receipt was written since the last ``settleMoves()`` (noted there on Citus).
    var receiptsSinceSettled = false

    package init(store: ReconStore, bulk: Bool = false) throws(StoreError) {
        self.store = store
        self.bulk = bulk
        unchanged = UnchangedLedgerRows(db: store.db)
        now = store.clock.nowMillis()
        // A receipt re-imported unchanged keeps its import time, so it is not decoded again (its
        // evidence keeps its place in the record; a changed one, or one uploaded by another user, is decoded anew
        // and its import time says it changed: ``noteChangedReceipts()``).
        upsertReceipt = try store.db.prepare(
            RowInsert(
                into: "receipts",
                [
                    "receipt_id", "user_id", "received_at", "format", "data", "claimed_environment", "source_file",
                    "source_line", "imported_at",
                ],
                onConflict: .update(
                    target: ["receipt_id"],
                    set: """
                        user_id = excluded.user_id, received_at = excluded.received_at,
                            format = excluded.format, data = excluded.data, claimed_environment = excluded.claimed_environment,
                            source_file = excluded.source_file, source_line = excluded.source_line,
                            imported_at = CASE WHEN receipts.format IS NOT DISTINCT FROM excluded.format AND receipts.data IS NOT DISTINCT FROM excluded.data
                                AND receipts.user_id IS NOT DISTINCT FROM excluded.user_id THEN receipts.imported_at ELSE excluded.imported_at END
                        """)))
        upsertProduct = try store.db.prepare(
            RowInsert(
                into: "products",
                [
                    "product_id", "storefront", "type", "price_milli", "currency", "proceeds_rate_ppm", "source_file",
                    "source_line", "imported_at", "proceeds_milli", "duration", "sample_content",
                ],
                onConflict: .update(
                    target: ["product_id", "storefront"],
                    set: """
                        type = excluded.type, price_milli = excluded.price_milli, currency = excluded.currency,
                            proceeds_rate_ppm = excluded.proceeds_rate_ppm, source_file = excluded.source_file,
                            source_line = excluded.source_line, imported_at = excluded.imported_at,
                            proceeds_milli = excluded.proceeds_milli, duration = excluded.duration,
                            sample_content = excluded.sample_content
                        """)))
        insertRejection = try store.db.prepare(RowInsert.rejectedRow)
    }

    private static let transactionColumns = [
        "record_id", "user_id", "product_id", "transaction_id", "original_transaction_id", "purchase_date", "quantity",
        "environment", "price_milli", "currency", "storefront", "verification_status", "delivered_at", "finished_at",
        "receipt_id", "source_file_id", "source_line", "imported_at", "row_hash",
    ]

    /// The ledger row's statement: a plain insert in a bulk load, else an upsert by record id (and original
    /// transaction id: a record under another one moves, ``settleMoves()``) that keeps the store's verdict only while
    /// the transaction, receipt and environment stay the same.
    private func transactionWriter() throws(StoreError) -> any StoreStatement {
        if let transactionStatement { return transactionStatement }
        let statement = try store.db.prepare(
            bulk
                ? RowInsert(into: "transactions", Self.transactionColumns)
                : RowInsert(
                    into: "transactions", Self.transactionColumns,
                    onConflict: .update(target: ["record_id", "original_transaction_id"], set: Self.transactionUpdate)))
        transactionStatement = statement
        return statement
    }

    /// A record stored before, imported again: every column as the export says, the verdict kept while the
    /// transaction, receipt and environment stay the same.
    private static let transactionUpdate = """
        user_id = excluded.user_id,
            product_id = excluded.product_id, transaction_id = excluded.transaction_id,
            purchase_date = excluded.purchase_date, quantity = excluded.quantity,
            environment = excluded.environment, price_milli = excluded.price_milli,
            currency = excluded.currency, storefront = excluded.storefront,
            verification_status = excluded.verification_status, delivered_at = excluded.delivered_at,
            finished_at = excluded.finished_at, receipt_id = excluded.receipt_id,
            source_file_id = excluded.source_file_id, source_line = excluded.source_line,
            imported_at = excluded.imported_at, row_hash = excluded.row_hash,
            recon_verdict = CASE WHEN transactions.transaction_id IS NOT DISTINCT FROM excluded.transaction_id
                AND transactions.receipt_id IS NOT DISTINCT FROM excluded.receipt_id
                AND transactions.environment IS NOT DISTINCT FROM excluded.environment THEN transactions.recon_verdict END,
            recon_verification_id = CASE WHEN transactions.transaction_id IS NOT DISTINCT FROM excluded.transaction_id
                AND transactions.receipt_id IS NOT DISTINCT FROM excluded.receipt_id
                AND transactions.environment IS NOT DISTINCT FROM excluded.environment
                THEN transactions.recon_verification_id END
        """

    private var fileIDs: [String: Int64] = [:]

    /// The id of an input file's path in `import_files` (created on first use).
    private func fileID(_ path: String) throws(StoreError) -> Int64 {
        if let id = fileIDs[path] { return id }
        try store.db.prepare(RowInsert(into: "import_files", ["path"], onConflict: .doNothing(target: nil))).run([
            .text(path)
        ])
        let id = try store.db.scalar("SELECT file_id FROM import_files WHERE path = $1", [.text(path)]) ?? 0
        fileIDs[path] = id
        return id
    }

    /// Reads what is stored of the lines `firstLine...lastLine` of `source` (one chunk's ledger rows), so rows stored
    /// unchanged can be skipped (never in a bulk load: the ledger was empty).
    package func prepare(firstLine: Int, lastLine: Int, source: String) throws(StoreError) {
        guard !bulk else { return }
        try unchanged.prepare(firstLine: firstLine, lastLine: lastLine, fileID: try fileID(source))
    }

    /// Writes a packed ledger row whose text is in `bytes`.
    package func write(_ row: PackedTransaction, bytes: UnsafePointer<UInt8>, source: String) throws(StoreError) {
        if !bulk {
            let id = UnsafeRawBufferPointer(start: bytes + Int(row.recordID.start), count: Int(row.recordID.count))
            if try unchanged.isStoredUnchanged(line: row.line, hash: row.hash, recordID: id) { return }
        }
        let statement = try transactionWriter()
        statement.reset()
        func text(_ span: ByteSpan, _ index: Int32) throws(StoreError) {
            if span.isAbsent {
                try statement.bindNull(at: index)
            } else {
                try statement.bindText(bytes + Int(span.start), count: Int(span.count), at: index)
            }
        }
        func literal(_ text: StaticString, _ index: Int32) throws(StoreError) {
            try statement.bindText(text.utf8Start, count: text.utf8CodeUnitCount, at: index)
        }
        func integer(_ value: Int64?, _ index: Int32) throws(StoreError) {
            if let value { try statement.bindInt64(value, at: index) } else { try statement.bindNull(at: index) }
        }
        try text(row.recordID, 1)
        try text(row.userID, 2)
        try text(row.productID, 3)
        try text(row.transactionID, 4)
        try text(row.originalTransactionID, 5)
        try integer(row.purchaseDate, 6)
        try integer(row.quantity, 7)
        try literal(row.sandbox ? "Sandbox" : "Production", 8)
        try integer(row.priceMilli, 9)
        try text(row.currency, 10)
        try text(row.storefront, 11)
        switch row.status {
        case .pending: try literal("pending", 12)
        case .verified: try literal("verified", 12)
        case .invalid: try literal("invalid", 12)
        case .error: try literal("error", 12)
        }
        try integer(row.deliveredAt, 13)
        try integer(row.finishedAt, 14)
        try text(row.receiptID, 15)
        try integer(try fileID(source), 16)
        try integer(Int64(row.line), 17)
        try integer(now, 18)
        try integer(Int64(bitPattern: row.hash), 19)
        try statement.runBound()
        if !bulk {
            try noteWritten { note throws(StoreError) in
                try note.bindText(bytes + Int(row.recordID.start), count: Int(row.recordID.count), at: 1)
                try note.bindInt64(Int64(row.line), at: 2)
                try note.bindText(
                    bytes + Int(row.originalTransactionID.start), count: Int(row.originalTransactionID.count), at: 3)
            }
        }
    }

    /// Writes a ledger row; `hash` is the ``RowHash`` of its source text (nil: none, never skipped).
    package func upsert(_ t: LedgerTransaction, source: String, line: Int, hash: UInt64?) throws(StoreError) {
        if !bulk, let hash {
            var id = t.recordID
            let skip = id.withUTF8 { bytes in
                Result { () throws(StoreError) in
                    try unchanged.isStoredUnchanged(line: line, hash: hash, recordID: UnsafeRawBufferPointer(bytes))
                }
            }
            if try skip.get() { return }
        }
        let file = try fileID(source)
        try transactionWriter().run([
            .text(t.recordID), .text(t.userID), .text(t.productID), .text(t.transactionID),
            .text(t.originalTransactionID), .integer(t.purchaseDate), .integer(Int64(t.quantity)),
            .text(t.environment.rawValue), t.price.map { .integer($0.milliunits) } ?? .null,
            t.price.map { .text($0.currency) } ?? .null, .optionalText(t.storefront),
            .text(t.verificationStatus.rawValue), .optionalInteger(t.deliveredAt), .optionalInteger(t.finishedAt),
            .optionalText(t.receiptID), .integer(file), .integer(Int64(line)), .integer(now),
            hash.map { .integer(Int64(bitPattern: $0)) } ?? .null,
        ])
        if !bulk {
            try noteWritten { note throws(StoreError) in
                try note.bindText(t.recordID, at: 1)
                try note.bindInt64(Int64(line), at: 2)
                try note.bindText(t.originalTransactionID, at: 3)
            }
        }
    }

    package func upsert(_ r: UploadedReceipt, source: String, line: Int) throws(StoreError) {
        try upsertReceipt.run([
            .text(r.receiptID), .optionalText(r.userID), .optionalInteger(r.receivedAt), .text(r.format.rawValue),
            .text(r.data), .optionalText(r.claimedEnvironment?.rawValue), .text(source), .integer(Int64(line)),
            .integer(now),
        ])
        receiptsSinceSettled = true
    }

    package func upsert(_ p: CatalogProduct, source: String, line: Int) throws(StoreError) {
        try upsertProduct.run([
            .text(p.productID), .text(p.storefront ?? ""), .text(p.type.rawValue),
            p.price.map { .integer($0.milliunits) } ?? .null, p.price.map { .text($0.currency) } ?? .null,
            .integer(p.proceedsRatePPM), .text(source), .integer(Int64(line)), .integer(now),
            p.proceeds.map { .integer($0.milliunits) } ?? .null, p.duration.map { .text($0.rawValue) } ?? .null,
            .integer(p.sampleContent ? 1 : 0),
        ])
    }

    /// Forgets the rejections an earlier import of `source` left, so a re-import's rejections
    /// replace them (a row fixed at the source leaves `rejected.csv`).
    package func forgetRejections(of source: String, kind: InputKind) throws(StoreError) {
        try store.db.prepare("DELETE FROM rejected_rows WHERE source_file = $1 AND kind = $2")
            .run([.text(source), .text(kind.rawValue)])
    }

    package func reject(_ r: RejectedRow) throws(StoreError) {
        try insertRejection.run([
            .text(r.kind.rawValue), .text(r.source), .integer(Int64(r.line)), .optionalText(r.recordID),
            .text(r.reason), .text(r.raw), .integer(now),
        ])
    }
}

@available(*, unavailable)
extension SQLLedgerWriter: Sendable {}

extension SQLValue {
    package static func optionalText(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    package static func optionalInteger(_ value: Int64?) -> SQLValue { value.map { .integer($0) } ?? .null }
}
