/// Reads for detection and reports. Every order is total, so output is reproducible.
extension ReconStore {
    /// The ledger's columns as a ``LedgerTransaction`` reads them. The status is the backend's,
    /// unless the backend still says `pending` and our own verification has settled it.
    static let transactionColumns = """
        record_id, user_id, product_id, transaction_id, original_transaction_id, purchase_date, quantity,
        environment, price_milli, currency, storefront,
        CASE WHEN verification_status = 'pending' AND recon_verdict IS NOT NULL THEN recon_verdict
            ELSE verification_status END,
        delivered_at, finished_at, receipt_id
        """

    /// Maps the 15 ``transactionColumns`` starting at column `at` (the only place rows become
    /// domain values).
    static func ledgerTransaction(_ s: SQLiteStatement, at c: Int32 = 0) -> LedgerTransaction {
        let price: Money? =
            if let milli = s.optionalInt64(c + 8), let currency = s.optionalText(c + 9) {
                Money(milliunits: milli, currency: currency)
            } else { nil }
        return LedgerTransaction(
            recordID: s.text(c), userID: s.text(c + 1), productID: s.text(c + 2), transactionID: s.text(c + 3),
            originalTransactionID: s.text(c + 4), purchaseDate: s.int64(c + 5), quantity: Int(s.int64(c + 6)),
            environment: StoreEnvironment(raw: s.text(c + 7)), price: price, storefront: s.optionalText(c + 10),
            verificationStatus: VerificationStatus(rawValue: s.text(c + 11)) ?? .error,
            deliveredAt: s.optionalInt64(c + 12), finishedAt: s.optionalInt64(c + 13),
            receiptID: s.optionalText(c + 14))
    }

    /// The catalog, by product id; rows in storefront order (default row first).
    public func catalog() throws(StoreError) -> [String: [CatalogProduct]] {
        let stmt = try db.prepare(
            """
            SELECT product_id, storefront, type, price_milli, currency, proceeds_rate_ppm FROM products
            ORDER BY product_id, storefront
            """)
        var result: [String: [CatalogProduct]] = [:]
        while try stmt.step() {
            let price: Money? =
                if let milli = stmt.optionalInt64(3), let currency = stmt.optionalText(4) {
                    Money(milliunits: milli, currency: currency)
                } else { nil }
            let storefront = stmt.text(1)
            let product = CatalogProduct(
                productID: stmt.text(0), type: ProductType(rawValue: stmt.text(2)) ?? .consumable, price: price,
                storefront: storefront.isEmpty ? nil : storefront, proceedsRatePPM: stmt.int64(5))
            result[product.productID, default: []].append(product)
        }
        return result
    }

    /// Every kept rejection, by file, line, then insertion order.
    public func rejectedRows() throws(StoreError) -> [RejectedRow] {
        let stmt = try db.prepare(
            "SELECT kind, source_file, line, record_id, reason, raw FROM rejected_rows ORDER BY source_file, line, id")
        var rows: [RejectedRow] = []
        while try stmt.step() {
            rows.append(
                RejectedRow(
                    kind: InputKind(rawValue: stmt.text(0)) ?? .transactions, source: stmt.text(1),
                    line: Int(stmt.int64(2)), recordID: stmt.optionalText(3), reason: stmt.text(4), raw: stmt.text(5)))
        }
        return rows
    }

    /// Pending ledger rows, oldest first, at most `limit`.
    public func pendingTransactions(limit: Int) throws(StoreError) -> [LedgerTransaction] {
        let stmt = try db.prepare(
            """
            SELECT \(Self.transactionColumns) FROM transactions
            WHERE verification_status = 'pending' AND recon_verdict IS NULL
            ORDER BY purchase_date, record_id LIMIT ?
            """)
        try stmt.bind([.integer(Int64(limit))])
        var rows: [LedgerTransaction] = []
        while try stmt.step() { rows.append(Self.ledgerTransaction(stmt)) }
        return rows
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

    static let evidenceColumns = """
        e.transaction_id, e.original_transaction_id, e.product_id, e.quantity, e.purchase_date,
        e.original_purchase_date, e.expires_date, e.cancellation_date, e.cancellation_reason, e.revocation_type,
        e.revocation_percentage, e.web_order_line_item_id, e.price_milli, e.currency, e.storefront, e.product_type,
        e.entry_environment, e.entry_bundle_id, e.app_account_token, e.in_app_ownership_type,
        e.source, e.receipt_id, r.format, e.environment, e.bundle_id, e.signature, e.apple_status, r.user_id,
        e.recorded_at, e.signed_date
        """

    static func evidenceRecord(_ s: SQLiteStatement) -> EvidenceRecord {
        let price: Money? =
            if let milli = s.optionalInt64(12), let currency = s.optionalText(13) {
                Money(milliunits: milli, currency: currency)
            } else { nil }
        let entry = EvidenceEntry(
            transactionID: s.text(0), originalTransactionID: s.optionalText(1), productID: s.optionalText(2),
            quantity: s.optionalInt64(3).map { Int($0) }, purchaseDate: s.optionalInt64(4),
            originalPurchaseDate: s.optionalInt64(5), expiresDate: s.optionalInt64(6),
            cancellationDate: s.optionalInt64(7), cancellationReason: s.optionalText(8),
            revocationType: s.optionalText(9), revocationPercentage: s.optionalInt64(10).map { Int($0) },
            webOrderLineItemID: s.optionalText(11), price: price, storefront: s.optionalText(14),
            productType: s.optionalText(15), environment: s.optionalText(16).map(StoreEnvironment.init(raw:)),
            bundleID: s.optionalText(17), appAccountToken: s.optionalText(18), inAppOwnershipType: s.optionalText(19),
            signedDate: s.optionalInt64(29))
        return EvidenceRecord(
            entry: entry, source: EvidenceSource(rawValue: s.text(20)) ?? .offline, receiptID: s.optionalText(21),
            receiptFormat: s.optionalText(22).flatMap(ReceiptFormat.init(rawValue:)),
            environment: s.optionalText(23).map(StoreEnvironment.init(raw:)), bundleID: s.optionalText(24),
            signature: SignatureStatus(rawValue: s.text(25)) ?? .notChecked,
            appleStatus: s.optionalInt64(26).map { Int($0) }, uploaderUserID: s.optionalText(27),
            recordedAt: s.int64(28))
    }

    /// Streams every transaction id that the ledger or the evidence names, in id order, with all
    /// its ledger rows and evidence. Memory: one group.
    public func forEachTransactionGroup(_ body: (TransactionGroup) throws -> Void) throws {
        let ledger = try db.prepare(
            "SELECT \(Self.transactionColumns) FROM transactions ORDER BY transaction_id, record_id")
        let evidence = try db.prepare(
            """
            SELECT \(Self.evidenceColumns) FROM evidence e LEFT JOIN receipts r ON r.receipt_id = e.receipt_id
            ORDER BY e.transaction_id, e.recorded_at, e.id
            """)
        var nextRow: LedgerTransaction? = try ledger.step() ? Self.ledgerTransaction(ledger) : nil
        var nextEvidence: EvidenceRecord? = try evidence.step() ? Self.evidenceRecord(evidence) : nil
        while nextRow != nil || nextEvidence != nil {
            let id: String
            switch (nextRow, nextEvidence) {
            case (let row?, let ev?): id = min(row.transactionID, ev.entry.transactionID)
            case (let row?, nil): id = row.transactionID
            case (nil, let ev?): id = ev.entry.transactionID
            case (nil, nil): return
            }
            var group = TransactionGroup(transactionID: id, records: [], evidence: [])
            while let row = nextRow, row.transactionID == id {
                group.records.append(row)
                nextRow = try ledger.step() ? Self.ledgerTransaction(ledger) : nil
            }
            while let ev = nextEvidence, ev.entry.transactionID == id {
                group.evidence.append(ev)
                nextEvidence = try evidence.step() ? Self.evidenceRecord(evidence) : nil
            }
            try body(group)
        }
    }

    /// Streams ledger rows sharing an original transaction id, for ids with two or more rows.
    public func forEachOriginalTransactionGroup(_ body: (OriginalTransactionGroup) throws -> Void) throws {
        let stmt = try db.prepare(
            """
            SELECT \(Self.transactionColumns) FROM transactions WHERE original_transaction_id IN (
                SELECT original_transaction_id FROM transactions GROUP BY original_transaction_id HAVING COUNT(*) > 1)
            ORDER BY original_transaction_id, purchase_date, record_id
            """)
        var current: OriginalTransactionGroup?
        while try stmt.step() {
            let row = Self.ledgerTransaction(stmt)
            if current?.originalTransactionID != row.originalTransactionID {
                if let done = current { try body(done) }
                current = OriginalTransactionGroup(originalTransactionID: row.originalTransactionID, records: [])
            }
            current?.records.append(row)
        }
        if let done = current { try body(done) }
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
