import AppleData
import ReconModel

/// Queries for the support lookup: everything the store knows about a user or a transaction.
extension SQLiteLookup {
    /// Ledger rows by user, transaction id or original transaction id, in booking order.
    public func ledgerRows(userID: String? = nil, transactionIDs: [String] = [], originalTransactionIDs: [String] = [])
        throws -> [LedgerTransaction]
    {
        var rows: [String: LedgerTransaction] = [:]
        func collect(_ sql: String, _ values: [String]) throws {
            let stmt = try db.prepare("SELECT \(TransactionsRow.columns) FROM transactions WHERE \(sql)")
            for value in values {
                try stmt.bind([.text(value)])
                while try stmt.step() {
                    let row = try TransactionsRow.read(stmt)
                    rows[row.recordID] = row
                }
            }
        }
        if let userID { try collect("user_id = $1", [userID]) }
        try collect("transaction_id = $1", transactionIDs)
        try collect("original_transaction_id = $1", originalTransactionIDs)
        return rows.values.sorted { ($0.purchaseDate, $0.recordID) < ($1.purchaseDate, $1.recordID) }
    }

    /// Receipts by id or uploader (payloads left out).
    public func receiptHeaders(ids: [String], userID: String?) throws -> [ReceiptHeader] {
        var result: [String: ReceiptHeader] = [:]
        func collect(_ sql: String, _ values: [String]) throws {
            let stmt = try db.prepare(
                // A receipt without `received_at` is placed on the timeline by its import time.
                "SELECT \(ReceiptsRow.timelineColumns) FROM receipts r WHERE r.\(sql)")
            for value in values {
                try stmt.bind([.text(value)])
                while try stmt.step() {
                    let summary = try ReceiptsRow.header(stmt)
                    result[summary.receiptID] = summary
                }
            }
        }
        try collect("receipt_id = $1", ids)
        if let userID { try collect("user_id = $1", [userID]) }
        return result.values.sorted { $0.receiptID < $1.receiptID }
    }

    /// Evidence naming any of the transaction ids, or read from any of the receipts.
    public func evidence(transactionIDs: [String], receiptIDs: [String]) throws -> [EvidenceRecord] {
        var seen = Set<Int64>()
        var result: [EvidenceRecord] = []
        for (column, values) in [("e.transaction_id", transactionIDs), ("e.receipt_id", receiptIDs)] {
            let stmt = try db.prepare(
                """
                SELECT \(EvidenceRow.columns), e.id AS id FROM evidence e LEFT JOIN receipts r ON r.receipt_id = e.receipt_id
                WHERE \(column) = $1 ORDER BY e.recorded_at, e.id
                """)
            for value in values {
                try stmt.bind([.text(value)])
                while try stmt.step() {
                    if seen.insert(stmt.int64(stmt.index(of: "id"))).inserted {
                        result.append(try EvidenceRow.read(stmt))
                    }
                }
            }
        }
        return result.sorted { ($0.recordedAt, $0.entry.transactionID) < ($1.recordedAt, $1.entry.transactionID) }
    }

    /// Findings (open and resolved) about any of the transactions or the user.
    public func findingHistory(transactionIDs: [String], userID: String?) throws -> [FindingHistory] {
        var result: [String: FindingHistory] = [:]
        func collect(_ sql: String, _ values: [String]) throws {
            let stmt = try db.prepare("SELECT \(FindingsRow.columns) FROM findings f WHERE f.\(sql)")
            for value in values {
                try stmt.bind([.text(value)])
                while try stmt.step() {
                    if let history = FindingsRow.read(stmt) { result[FindingsRow.fingerprint(stmt)] = history }
                }
            }
        }
        try collect("transaction_id = $1", transactionIDs)
        try collect("original_transaction_id = $1", transactionIDs)
        if let userID {
            try collect("fingerprint IN (SELECT fingerprint FROM finding_users WHERE user_id = $1)", [userID])
        }
        return result.values.sorted { Finding.reportOrder($0.finding, $1.finding) }
    }
}
