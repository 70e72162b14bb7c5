import AppleData
import ReconModel

/// Writes one input's rows into the ledger as the import reads them: transactions, receipts, catalog products and
/// entitlements upserted by their ids, bad rows kept as rejections (CONTRACT §1).
///
/// ``LedgerImportRepository/writer(bulk:)`` makes one per input; ``SQLLedgerWriter`` keeps the rows in SQLite.
package protocol LedgerWriter: AnyObject {
    /// Forgets what an earlier import of `source` rejected: this import's rejections replace them.
    func forgetRejections(of source: String, kind: InputKind) throws(StoreError)

    /// Reads what is stored of `source`'s lines `firstLine...lastLine`, so rows stored unchanged are not written
    /// again; called before each chunk of rows.
    func prepare(firstLine: Int, lastLine: Int, source: String) throws(StoreError)

    /// Writes one ledger row the fast path packed (its text lives in `bytes`).
    func write(_ row: PackedTransaction, bytes: UnsafePointer<UInt8>, source: String) throws(StoreError)

    /// Upserts one ledger transaction by record id and original transaction id; `hash` is the row's text hash, when
    /// the reader computed it.
    func upsert(_ t: LedgerTransaction, source: String, line: Int, hash: UInt64?) throws(StoreError)

    /// Upserts one uploaded receipt by receipt id.
    func upsert(_ r: UploadedReceipt, source: String, line: Int) throws(StoreError)

    /// Upserts one catalog product by product id and storefront.
    func upsert(_ p: CatalogProduct, source: String, line: Int) throws(StoreError)

    /// Upserts one entitlement by user and original transaction id.
    func upsert(_ e: Entitlement, source: String, line: Int) throws(StoreError)

    /// Keeps a row that could not be read, with its line and reason.
    func reject(_ r: RejectedRow) throws(StoreError)

    /// Deletes the old rows of the records written under another original transaction id since the last call
    /// (``SQLLedgerWriter/settleMoves()``); called after each chunk and before each commit.
    func settleMoves() throws(StoreError)
}

extension LedgerWriter {
    /// Upserts one ledger transaction whose text hash nobody computed.
    package func upsert(_ t: LedgerTransaction, source: String, line: Int) throws(StoreError) {
        try upsert(t, source: source, line: line, hash: nil)
    }
}

extension SQLLedgerWriter: LedgerWriter {}
