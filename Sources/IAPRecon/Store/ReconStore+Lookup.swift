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
                // A receipt without `received_at` is placed on the timeline by its import time.
                """
                SELECT receipt_id, user_id, COALESCE(received_at, imported_at), format, claimed_environment
                FROM receipts WHERE \(sql)
                """)
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
                    if seen.insert(stmt.int64(30)).inserted { result.append(Self.evidenceRecord(stmt)) }
                }
            }
        }
        return result.sorted { ($0.recordedAt, $0.entry.transactionID) < ($1.recordedAt, $1.entry.transactionID) }
    }

    /// Findings (open and resolved) about any of the transactions or the user.
    public func findingHistory(transactionIDs: [String], userID: String?) throws -> [FindingHistory] {
        var result: [String: FindingHistory] = [:]
        func collect(_ sql: String, _ values: [String]) throws {
            let stmt = try db.prepare("SELECT \(Self.findingColumns) FROM findings f WHERE \(sql)")
            for value in values {
                try stmt.bind([.text(value)])
                while try stmt.step() {
                    if let history = Self.findingHistory(stmt) { result[stmt.text(14)] = history }
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
