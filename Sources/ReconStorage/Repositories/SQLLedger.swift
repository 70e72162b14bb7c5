import AppleData
import ReconModel

/// Reads for detection and reports. Every order is total, so output is reproducible.
extension SQLLedger {
    /// The catalog, by product id; rows in storefront order (default row first).
    public func catalog() throws(StoreError) -> [String: [CatalogProduct]] {
        let stmt = try db.prepare(
            "SELECT \(ProductsRow.columns) FROM products ORDER BY product_id NULLS FIRST, storefront NULLS FIRST")
        var result: [String: [CatalogProduct]] = [:]
        while try stmt.step() {
            let product = try ProductsRow.read(stmt)
            result[product.productID, default: []].append(product)
        }
        return result
    }

    /// Every kept rejection, by file, line, then insertion order.
    public func rejectedRows() throws(StoreError) -> [RejectedRow] {
        let stmt = try db.prepare(
            "SELECT \(RejectedRowsRow.columns) FROM rejected_rows ORDER BY source_file, line, id")
        var rows: [RejectedRow] = []
        while try stmt.step() { rows.append(try RejectedRowsRow.read(stmt)) }
        return rows
    }

    /// Pending ledger rows, oldest first, at most `limit`.
    public func forEachPendingTransaction(limit: Int, _ body: (LedgerTransaction) throws -> Void) throws {
        let stmt = try db.prepare(
            """
            SELECT \(TransactionsRow.columns) FROM transactions
            WHERE verification_status = 'pending' AND recon_verdict IS NULL
            ORDER BY purchase_date, record_id LIMIT $1
            """)
        try stmt.bind([.integer(Int64(limit))])
        var reader = TransactionsRow.Reader()
        while try stmt.step() { try body(try reader.read(stmt)) }
    }

    /// Row counts of the main tables, for run records.
    public func counts() throws(StoreError) -> StoreCounts {
        func count(_ sql: String) throws(StoreError) -> Int { Int(try db.scalar(sql) ?? 0) }
        return StoreCounts(
            transactions: try count("SELECT COUNT(*) FROM transactions"),
            receipts: try count("SELECT COUNT(*) FROM receipts"),
            products: try count("SELECT COUNT(*) FROM products"),
            rejected: try count("SELECT COUNT(*) FROM rejected_rows"),
            pending: try count(
                "SELECT COUNT(*) FROM transactions WHERE verification_status = 'pending' AND recon_verdict IS NULL"),
            evidence: try count("SELECT COUNT(*) FROM evidence"))
    }

    /// Streams every transaction id that the ledger or the evidence names, in id order, with all its ledger rows and
    /// evidence.
    ///
    /// Memory: one group.
    public func forEachTransactionGroup(_ body: (TransactionGroup) throws -> Void) throws {
        try forEachTransactionGroup(
            ledgerSQL:
                "SELECT \(TransactionsRow.columns) FROM transactions ORDER BY transaction_id NULLS FIRST, record_id NULLS FIRST",
            evidenceSQL: """
                SELECT \(EvidenceRow.columns) FROM evidence e LEFT JOIN receipts r ON r.receipt_id = e.receipt_id
                ORDER BY e.transaction_id NULLS FIRST, e.recorded_at, e.id
                """, body)
    }

    /// Merges the ledger rows and evidence the two queries read (each in transaction id order) into groups.
    package func forEachTransactionGroup(
        ledgerSQL: String, evidenceSQL: String, _ body: (TransactionGroup) throws -> Void
    ) throws {
        let ledger = try db.prepare(ledgerSQL)
        let evidence = try db.prepare(evidenceSQL)
        var reader = TransactionsRow.Reader()
        func readRow() throws(StoreError) -> LedgerTransaction? {
            try ledger.step() ? reader.read(ledger) : nil
        }
        var nextRow = try readRow()
        var nextEvidence: EvidenceRecord? = try evidence.step() ? EvidenceRow.read(evidence) : nil
        // The rows move into their group (`take()`), not copied: a copy retains each of a row's texts.
        while true {
            let id: String
            switch (nextRow?.transactionID, nextEvidence?.entry.transactionID) {
            case (let row?, let ev?): id = min(row, ev)
            case (let row?, nil): id = row
            case (nil, let ev?): id = ev
            case (nil, nil): return
            }
            var group = TransactionGroup(transactionID: id, records: [], evidence: [])
            while nextRow?.transactionID == id, let row = nextRow.take() {
                group.records.append(row)
                nextRow = try readRow()
            }
            while nextEvidence?.entry.transactionID == id, let ev = nextEvidence.take() {
                group.evidence.append(ev)
                nextEvidence = try evidence.step() ? EvidenceRow.read(evidence) : nil
            }
            try body(group)
        }
    }

    /// Streams ledger rows sharing an original transaction id, for ids with two or more rows, in original
    /// transaction id order, each group's rows by purchase date and record id.
    ///
    /// The ids come from one scan of their index, each group from its own lookup: no list of every id is built
    /// (with millions of subscriptions it would grow with the ledger).
    public func forEachOriginalTransactionGroup(_ body: (OriginalTransactionGroup) throws -> Void) throws {
        try forEachOriginalTransactionGroup(
            ids: """
                SELECT original_transaction_id FROM transactions
                GROUP BY original_transaction_id HAVING COUNT(*) > 1 ORDER BY original_transaction_id NULLS FIRST
                """, body)
    }

    /// The groups of the original transaction ids `ids` selects (in the order it gives), each looked up on its own;
    /// an id with fewer than two ledger rows is no group.
    package func forEachOriginalTransactionGroup(ids sql: String, _ body: (OriginalTransactionGroup) throws -> Void)
        throws
    {
        let ids = try db.prepare(sql)
        if db.dialect == .postgres {
            try forEachOriginalTransactionGroupInPages(ids: ids, body)
            return
        }
        let rows = try db.prepare(
            """
            SELECT \(TransactionsRow.columns) FROM transactions WHERE original_transaction_id = $1
            ORDER BY purchase_date, record_id
            """)
        var reader = TransactionsRow.Reader()
        while try ids.step() {
            let id = ids.text(0)
            try rows.bind([.text(id)])
            var group = OriginalTransactionGroup(originalTransactionID: id, records: [])
            while try rows.step() { group.records.append(try reader.read(rows)) }
            guard group.records.count > 1 else { continue }
            try body(group)
        }
    }
}

/// Row counts of the store's main tables.
public struct StoreCounts: Sendable, Hashable, Codable {
    public var transactions: Int
    public var receipts: Int
    public var products: Int
    public var rejected: Int
    public var pending: Int
    public var evidence: Int
}
