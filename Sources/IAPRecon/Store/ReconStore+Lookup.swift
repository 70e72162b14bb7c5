/// Queries for the support lookup: everything the store knows about a user or a transaction.
extension ReconStore {
    /// Ledger rows by user, transaction id or original transaction id, in booking order.
    public func ledgerRows(userID: String? = nil, transactionIDs: [String] = [], originalTransactionIDs: [String] = [])
        throws -> [LedgerTransaction]
    {
        var rows: [String: LedgerTransaction] = [:]
        func collect(_ sql: String, _ values: [String]) throws {
            let stmt = try db.prepare("SELECT \(Self.transactionColumns) FROM transactions WHERE \(sql)")
            for value in values {
                try stmt.bind([.text(value)])
                while try stmt.step() {
                    let row = Self.ledgerTransaction(stmt)
                    rows[row.recordID] = row
                }
            }
        }
        if let userID { try collect("user_id = ?", [userID]) }
        try collect("transaction_id = ?", transactionIDs)
        try collect("original_transaction_id = ?", originalTransactionIDs)
        return rows.values.sorted { ($0.purchaseDate, $0.recordID) < ($1.purchaseDate, $1.recordID) }
    }

    /// Receipts by id or uploader (payloads left out).
    public func receiptSummaries(ids: [String], userID: String?) throws -> [ReceiptSummary] {
        var result: [String: ReceiptSummary] = [:]
        func collect(_ sql: String, _ values: [String]) throws {
            let stmt = try db.prepare(
                "SELECT receipt_id, user_id, received_at, format, claimed_environment FROM receipts WHERE \(sql)")
            for value in values {
                try stmt.bind([.text(value)])
                while try stmt.step() {
                    result[stmt.text(0)] = ReceiptSummary(
                        receiptID: stmt.text(0), userID: stmt.optionalText(1), receivedAt: stmt.optionalInt64(2),
                        format: ReceiptFormat(rawValue: stmt.text(3)) ?? .appReceipt,
                        claimedEnvironment: stmt.optionalText(4).map(StoreEnvironment.init(raw:)))
                }
            }
        }
        try collect("receipt_id = ?", ids)
        if let userID { try collect("user_id = ?", [userID]) }
        return result.values.sorted { $0.receiptID < $1.receiptID }
    }

    /// Evidence naming any of the transaction ids, or read from any of the receipts.
    public func evidence(transactionIDs: [String], receiptIDs: [String]) throws -> [EvidenceRecord] {
        var seen = Set<Int64>()
        var result: [EvidenceRecord] = []
        for (column, values) in [("e.transaction_id", transactionIDs), ("e.receipt_id", receiptIDs)] {
            let stmt = try db.prepare(
                """
                SELECT \(Self.evidenceColumns), e.id FROM evidence e LEFT JOIN receipts r ON r.receipt_id = e.receipt_id
                WHERE \(column) = ? ORDER BY e.recorded_at, e.id
                """)
            for value in values {
                try stmt.bind([.text(value)])
                while try stmt.step() {
                    if seen.insert(stmt.int64(29)).inserted { result.append(Self.evidenceRecord(stmt)) }
                }
            }
        }
        return result.sorted { ($0.recordedAt, $0.entry.transactionID) < ($1.recordedAt, $1.entry.transactionID) }
    }

    /// Findings (open and resolved) about any of the transactions or the user.
    public func findingHistory(transactionIDs: [String], userID: String?) throws -> [FindingHistory] {
        var result: [String: FindingHistory] = [:]
        let columns = """
            f.fingerprint, f.code, f.transaction_id, f.original_transaction_id, f.user_ids, f.product_id, f.environment,
            f.amount_milli, f.currency, f.detail, f.record_ids, f.receipt_id, f.first_seen_at, f.last_seen_at, f.resolved_at
            """
        func collect(_ sql: String, _ values: [String]) throws {
            let stmt = try db.prepare("SELECT \(columns) FROM findings f WHERE \(sql)")
            for value in values {
                try stmt.bind([.text(value)])
                while try stmt.step() {
                    guard let code = FindingCode(rawValue: stmt.text(1)) else { continue }
                    let amount: Money? =
                        if let milli = stmt.optionalInt64(7), let currency = stmt.optionalText(8) {
                            Money(milliunits: milli, currency: currency)
                        } else { nil }
                    let finding = Finding(
                        code: code, transactionID: stmt.text(2), originalTransactionID: stmt.optionalText(3),
                        userIDs: stmt.text(4).split(separator: " ").map(String.init), productID: stmt.optionalText(5),
                        environment: stmt.optionalText(6).map(StoreEnvironment.init(raw:)), amount: amount,
                        detail: stmt.text(9), recordIDs: stmt.text(10).split(separator: " ").map(String.init),
                        receiptID: stmt.optionalText(11))
                    result[stmt.text(0)] = FindingHistory(
                        finding: finding, firstSeenAt: stmt.int64(12), lastSeenAt: stmt.int64(13),
                        resolvedAt: stmt.optionalInt64(14), isNew: false)
                }
            }
        }
        try collect("transaction_id = ?", transactionIDs)
        try collect("original_transaction_id = ?", transactionIDs)
        if let userID {
            try collect("fingerprint IN (SELECT fingerprint FROM finding_users WHERE user_id = ?)", [userID])
        }
        return result.values.sorted { Finding.reportOrder($0.finding, $1.finding) }
    }
}
