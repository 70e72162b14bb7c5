import AppleData
import ReconModel

/// Queries for the support lookup: everything the store knows about a user or a transaction.
extension SQLiteLookup {
    /// Ledger rows by user, transaction id or original transaction id, in booking order.
    public func ledgerRows(userID: String? = nil, transactionIDs: [String] = [], originalTransactionIDs: [String] = [])
        throws -> [LedgerTransaction]
    {
        var rows: [String: LedgerTransaction] = [:]
        func collect(_ column: String, _ values: [String]) throws {
            try db.forEachChunk(of: values) { marks, values in
                let stmt = try db.prepare(
                    "SELECT \(TransactionsRow.columns) FROM transactions WHERE \(column) IN (\(marks))")
                try stmt.bind(values)
                while try stmt.step() {
                    let row = try TransactionsRow.read(stmt)
                    rows[row.recordID] = row
                }
            }
        }
        if let userID { try collect("user_id", [userID]) }
        try collect("transaction_id", transactionIDs)
        try collect("original_transaction_id", originalTransactionIDs)
        return rows.values.sorted { ($0.purchaseDate, $0.recordID) < ($1.purchaseDate, $1.recordID) }
    }

    /// Receipts by id or uploader (payloads left out).
    public func receiptHeaders(ids: [String], userID: String?) throws -> [ReceiptHeader] {
        var result: [String: ReceiptHeader] = [:]
        func collect(_ column: String, _ values: [String]) throws {
            try db.forEachChunk(of: values) { marks, values in
                let stmt = try db.prepare(
                    // A receipt without `received_at` is placed on the timeline by its import time.
                    "SELECT \(ReceiptsRow.timelineColumns) FROM receipts r WHERE r.\(column) IN (\(marks))")
                try stmt.bind(values)
                while try stmt.step() {
                    let summary = try ReceiptsRow.header(stmt)
                    result[summary.receiptID] = summary
                }
            }
        }
        try collect("receipt_id", ids)
        if let userID { try collect("user_id", [userID]) }
        return result.values.sorted { $0.receiptID < $1.receiptID }
    }

    /// Evidence naming any of the transaction ids, or read from any of the receipts.
    public func evidence(transactionIDs: [String], receiptIDs: [String]) throws -> [EvidenceRecord] {
        var seen = Set<Int64>()
        var result: [EvidenceRecord] = []
        for (column, values) in [("e.transaction_id", transactionIDs), ("e.receipt_id", receiptIDs)] {
            // Each value's evidence in the order recorded, the values in the order given.
            var position: [String: Int] = [:]
            for (index, value) in values.enumerated() where position[value] == nil { position[value] = index }
            var found: [(position: Int, recordedAt: Int64, id: Int64, record: EvidenceRecord)] = []
            try db.forEachChunk(of: values) { marks, values in
                let stmt = try db.prepare(
                    """
                    SELECT \(EvidenceRow.columns), e.id AS id, \(column) AS asked_for
                    FROM evidence e LEFT JOIN receipts r ON r.receipt_id = e.receipt_id
                    WHERE \(column) IN (\(marks))
                    """)
                try stmt.bind(values)
                while try stmt.step() {
                    let record = try EvidenceRow.read(stmt)
                    let asked = stmt.text(stmt.index(of: "asked_for"))
                    found.append((position[asked] ?? .max, record.recordedAt, stmt.int64(stmt.index(of: "id")), record))
                }
            }
            found.sort { ($0.position, $0.recordedAt, $0.id) < ($1.position, $1.recordedAt, $1.id) }
            for item in found where seen.insert(item.id).inserted { result.append(item.record) }
        }
        return result.sorted { ($0.recordedAt, $0.entry.transactionID) < ($1.recordedAt, $1.entry.transactionID) }
    }

    /// Findings (open and resolved) about any of the transactions or the user.
    public func findingHistory(transactionIDs: [String], userID: String?) throws -> [FindingHistory] {
        var result: [String: FindingHistory] = [:]
        func collect(_ condition: (String) -> String, _ values: [String]) throws {
            try db.forEachChunk(of: values) { marks, values in
                let stmt = try db.prepare("SELECT \(FindingsRow.columns) FROM findings f WHERE \(condition(marks))")
                try stmt.bind(values)
                while try stmt.step() {
                    if let history = FindingsRow.read(stmt) { result[FindingsRow.fingerprint(stmt)] = history }
                }
            }
        }
        try collect({ "f.transaction_id IN (\($0))" }, transactionIDs)
        try collect({ "f.original_transaction_id IN (\($0))" }, transactionIDs)
        if let userID {
            try collect(
                { "f.fingerprint IN (SELECT fingerprint FROM finding_users WHERE user_id IN (\($0)))" }, [userID])
        }
        return result.values.sorted { Finding.reportOrder($0.finding, $1.finding) }
    }
}
