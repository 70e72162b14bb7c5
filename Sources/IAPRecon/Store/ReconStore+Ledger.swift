/// Writes of imported rows: idempotent upserts and kept rejections.
extension ReconStore {
    /// Whether the ledger is empty (a first, bulk load can then build indexes afterwards).
    func ledgerIsEmpty() throws(StoreError) -> Bool {
        try db.scalar("SELECT NOT EXISTS (SELECT 1 FROM transactions)") == 1
    }

    /// Prepares a first load into an empty ledger: indexes are built once at the end, and the rollback journal
    /// replaces WAL for the load (new pages are written once instead of twice).
    ///
    /// If another connection holds the store, WAL simply stays on.
    func beginBulkLoad() throws(StoreError) {
        try dropTransactionIndexes()
        try? db.execute("PRAGMA journal_mode=DELETE")
    }

    /// Ends a bulk load: indexes exist again (also after a failed load) and WAL is back on.
    func endBulkLoad() {
        try? createTransactionIndexes()
        try? db.execute("PRAGMA journal_mode=WAL")
    }

    /// Drops the ledger's secondary indexes before a bulk first load.
    func dropTransactionIndexes() throws(StoreError) {
        for index in Schema.transactionIndexes {
            try db.execute("DROP INDEX IF EXISTS \(index.name)", context: "preparing a bulk load")
        }
    }

    /// Recreates the ledger's secondary indexes after a bulk load, letting SQLite's sorter use
    /// both cores and a larger cache while it builds them.
    func createTransactionIndexes() throws(StoreError) {
        try db.execute("PRAGMA threads = 2; PRAGMA cache_size = -131072", context: "preparing index builds")
        defer { try? db.execute("PRAGMA threads = 0; PRAGMA cache_size = -8192") }
        for index in Schema.transactionIndexes {
            try db.execute(index.sql, context: "building index \(index.name)")
        }
    }

    /// Gives an import a larger page cache (restored by ``endImport()``).
    func beginImport() throws(StoreError) {
        try db.execute("PRAGMA cache_size = -65536", context: "preparing an import")
    }

    func endImport() {
        try? db.execute("PRAGMA cache_size = -8192")
    }

    func beginBatch() throws(StoreError) {
        try db.execute("BEGIN IMMEDIATE", context: "starting an import batch")
    }

    func commitBatch() throws(StoreError) {
        try db.execute("COMMIT", context: "committing an import batch")
    }

    func rollbackBatch() {
        try? db.execute("ROLLBACK")
    }
}

/// Prepared upsert statements for one import, reused for every row.
final class LedgerWriter {
    private let store: ReconStore
    private let upsertTransaction: SQLiteStatement
    private let upsertReceipt: SQLiteStatement
    private let upsertProduct: SQLiteStatement
    private let insertRejection: SQLiteStatement
    private let now: Int64

    init(store: ReconStore) throws(StoreError) {
        self.store = store
        now = store.clock.nowMillis()
        upsertTransaction = try store.db.prepare(
            """
            INSERT INTO transactions (record_id, user_id, product_id, transaction_id, original_transaction_id,
                purchase_date, quantity, environment, price_milli, currency, storefront, verification_status,
                delivered_at, finished_at, receipt_id, source_file_id, source_line, imported_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
            ON CONFLICT (record_id) DO UPDATE SET user_id = ?2, product_id = ?3, transaction_id = ?4,
                original_transaction_id = ?5, purchase_date = ?6, quantity = ?7, environment = ?8,
                price_milli = ?9, currency = ?10, storefront = ?11, verification_status = ?12,
                delivered_at = ?13, finished_at = ?14, receipt_id = ?15, source_file_id = ?16, source_line = ?17,
                imported_at = ?18,
                recon_verdict = CASE WHEN transaction_id IS ?4 AND receipt_id IS ?15 AND environment IS ?8
                    THEN recon_verdict END,
                recon_verification_id = CASE WHEN transaction_id IS ?4 AND receipt_id IS ?15 AND environment IS ?8
                    THEN recon_verification_id END
            """)
        // A receipt re-imported unchanged keeps its import time, so it is not decoded again (its
        // evidence keeps its place in the record; a changed one is decoded anew).
        upsertReceipt = try store.db.prepare(
            """
            INSERT INTO receipts (receipt_id, user_id, received_at, format, data, claimed_environment,
                source_file, source_line, imported_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            ON CONFLICT (receipt_id) DO UPDATE SET user_id = ?2, received_at = ?3, format = ?4, data = ?5,
                claimed_environment = ?6, source_file = ?7, source_line = ?8,
                imported_at = CASE WHEN format IS ?4 AND data IS ?5 THEN imported_at ELSE ?9 END
            """)
        upsertProduct = try store.db.prepare(
            """
            INSERT INTO products (product_id, storefront, type, price_milli, currency, proceeds_rate_ppm,
                source_file, source_line, imported_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            ON CONFLICT (product_id, storefront) DO UPDATE SET type = ?3, price_milli = ?4, currency = ?5,
                proceeds_rate_ppm = ?6, source_file = ?7, source_line = ?8, imported_at = ?9
            """)
        insertRejection = try store.db.prepare(
            """
            INSERT INTO rejected_rows (kind, source_file, line, record_id, reason, raw, rejected_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            ON CONFLICT (source_file, line, raw) DO UPDATE SET reason = ?5, record_id = ?4
            """)
    }

    private var fileIDs: [String: Int64] = [:]

    /// The id of an input file's path in `import_files` (created on first use).
    private func fileID(_ path: String) throws(StoreError) -> Int64 {
        if let id = fileIDs[path] { return id }
        try store.db.prepare("INSERT OR IGNORE INTO import_files (path) VALUES (?)").run([.text(path)])
        let id = try store.db.scalar("SELECT file_id FROM import_files WHERE path = ?", [.text(path)]) ?? 0
        fileIDs[path] = id
        return id
    }

    func upsert(_ t: LedgerTransaction, source: String, line: Int) throws(StoreError) {
        let file = try fileID(source)
        try upsertTransaction.run([
            .text(t.recordID), .text(t.userID), .text(t.productID), .text(t.transactionID),
            .text(t.originalTransactionID), .integer(t.purchaseDate), .integer(Int64(t.quantity)),
            .text(t.environment.rawValue), t.price.map { .integer($0.milliunits) } ?? .null,
            t.price.map { .text($0.currency) } ?? .null, .optionalText(t.storefront),
            .text(t.verificationStatus.rawValue), .optionalInteger(t.deliveredAt), .optionalInteger(t.finishedAt),
            .optionalText(t.receiptID), .integer(file), .integer(Int64(line)), .integer(now),
        ])
    }

    func upsert(_ r: UploadedReceipt, source: String, line: Int) throws(StoreError) {
        try upsertReceipt.run([
            .text(r.receiptID), .optionalText(r.userID), .optionalInteger(r.receivedAt), .text(r.format.rawValue),
            .text(r.data), .optionalText(r.claimedEnvironment?.rawValue), .text(source), .integer(Int64(line)),
            .integer(now),
        ])
    }

    func upsert(_ p: CatalogProduct, source: String, line: Int) throws(StoreError) {
        try upsertProduct.run([
            .text(p.productID), .text(p.storefront ?? ""), .text(p.type.rawValue),
            p.price.map { .integer($0.milliunits) } ?? .null, p.price.map { .text($0.currency) } ?? .null,
            .integer(p.proceedsRatePPM), .text(source), .integer(Int64(line)), .integer(now),
        ])
    }

    /// Forgets the rejections an earlier import of `source` left, so a re-import's rejections
    /// replace them (a row fixed at the source leaves `rejected.csv`).
    func forgetRejections(of source: String, kind: InputKind) throws(StoreError) {
        try store.db.prepare("DELETE FROM rejected_rows WHERE source_file = ? AND kind = ?")
            .run([.text(source), .text(kind.rawValue)])
    }

    func reject(_ r: RejectedRow) throws(StoreError) {
        try insertRejection.run([
            .text(r.kind.rawValue), .text(r.source), .integer(Int64(r.line)), .optionalText(r.recordID),
            .text(r.reason), .text(r.raw), .integer(now),
        ])
    }
}

@available(*, unavailable)
extension LedgerWriter: Sendable {}

extension SQLiteValue {
    static func optionalText(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
    static func optionalInteger(_ value: Int64?) -> SQLiteValue { value.map { .integer($0) } ?? .null }
}
