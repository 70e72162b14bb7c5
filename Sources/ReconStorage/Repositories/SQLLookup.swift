import AppleData
import ReconModel

/// Queries for the support lookup: everything the store knows about a user or a transaction.
extension SQLLookup {
    /// Ledger rows by user, transaction id or original transaction id, in booking order.
    public func ledgerRows(userID: String? = nil, transactionIDs: [String] = [], originalTransactionIDs: [String] = [])
        throws -> [LedgerTransaction]
    {
        var rows: [String: LedgerTransaction] = [:]
        let asked: [(condition: (String) -> String, values: [String])] = [
            ({ "user_id IN (\($0))" }, userID.map { [$0] } ?? []), ({ "transaction_id IN (\($0))" }, transactionIDs),
            ({ "original_transaction_id IN (\($0))" }, originalTransactionIDs),
        ]
        try db.forEachChunk(matching: asked) { condition, values in
            let stmt = try db.prepare("SELECT \(TransactionsRow.columns) FROM transactions WHERE \(condition)")
            try stmt.bind(values)
            while try stmt.step() {
                let row = try TransactionsRow.read(stmt)
                rows[row.recordID] = row
            }
        }
        return rows.values.sorted { ($0.purchaseDate, $0.recordID) < ($1.purchaseDate, $1.recordID) }
    }

    /// Receipts by id or uploader (payloads left out).
    public func receiptHeaders(ids: [String], userID: String?) throws -> [ReceiptHeader] {
        var result: [String: ReceiptHeader] = [:]
        let asked: [(condition: (String) -> String, values: [String])] = [
            ({ "r.receipt_id IN (\($0))" }, ids), ({ "r.user_id IN (\($0))" }, userID.map { [$0] } ?? []),
        ]
        try db.forEachChunk(matching: asked) { condition, values in
            // A receipt without `received_at` is placed on the timeline by its import time.
            let stmt = try db.prepare("SELECT \(ReceiptsRow.timelineColumns) FROM receipts r WHERE \(condition)")
            try stmt.bind(values)
            while try stmt.step() {
                let summary = try ReceiptsRow.header(stmt)
                result[summary.receiptID] = summary
            }
        }
        return result.values.sorted { $0.receiptID < $1.receiptID }
    }

    /// Evidence naming any of the transaction ids, or read from any of the receipts.
    public func evidence(transactionIDs: [String], receiptIDs: [String]) throws -> [EvidenceRecord] {
        // In one statement, in the order asking column by column would give: the transactions' evidence, each
        // transaction's in the order recorded, then the receipts' not already listed.
        func positions(_ values: [String]) -> [String: Int] {
            var position: [String: Int] = [:]
            for (index, value) in values.enumerated() where position[value] == nil { position[value] = index }
            return position
        }
        let byTransaction = positions(transactionIDs)
        let byReceipt = positions(receiptIDs)
        var found: [(pass: Int, position: Int, recordedAt: Int64, id: Int64, record: EvidenceRecord)] = []
        let asked: [(condition: (String) -> String, values: [String])] = [
            ({ "e.transaction_id IN (\($0))" }, transactionIDs), ({ "e.receipt_id IN (\($0))" }, receiptIDs),
        ]
        try db.forEachChunk(matching: asked) { condition, values in
            let stmt = try db.prepare(
                """
                SELECT \(EvidenceRow.columns), e.id AS id, e.transaction_id AS asked_transaction,
                    e.receipt_id AS asked_receipt
                FROM evidence e LEFT JOIN receipts r ON r.receipt_id = e.receipt_id
                WHERE \(condition)
                """)
            try stmt.bind(values)
            while try stmt.step() {
                let record = try EvidenceRow.read(stmt)
                let id = stmt.int64(stmt.index(of: "id"))
                if let position = byTransaction[stmt.text(stmt.index(of: "asked_transaction"))] {
                    found.append((0, position, record.recordedAt, id, record))
                } else {
                    let position = byReceipt[stmt.text(stmt.index(of: "asked_receipt"))] ?? .max
                    found.append((1, position, record.recordedAt, id, record))
                }
            }
        }
        found.sort { ($0.pass, $0.position, $0.recordedAt, $0.id) < ($1.pass, $1.position, $1.recordedAt, $1.id) }
        var seen = Set<Int64>()
        var result: [EvidenceRecord] = []
        for item in found where seen.insert(item.id).inserted { result.append(item.record) }
        return result.sorted { ($0.recordedAt, $0.entry.transactionID) < ($1.recordedAt, $1.entry.transactionID) }
    }

    /// Findings (open and resolved) about any of the transactions or the user.
    public func findingHistory(transactionIDs: [String], userID: String?) throws -> [FindingHistory] {
        var result: [String: FindingHistory] = [:]
        // A finding names a transaction as its own or as its original; a user's are listed beside.
        let asked: [(condition: (String) -> String, values: [String])] = [
            ({ "f.transaction_id IN (\($0))" }, transactionIDs),
            ({ "f.original_transaction_id IN (\($0))" }, transactionIDs),
            (
                { "f.fingerprint IN (SELECT fingerprint FROM finding_users WHERE user_id IN (\($0)))" },
                userID.map { [$0] } ?? []
            ),
        ]
        try db.forEachChunk(matching: asked) { condition, values in
            let stmt = try db.prepare(
                "SELECT \(FindingsRow.columns) FROM findings f WHERE \(condition)")
            try stmt.bind(values)
            while try stmt.step() {
                if let history = FindingsRow.read(stmt) { result[FindingsRow.fingerprint(stmt)] = history }
            }
        }
        return result.values.sorted { Finding.reportOrder($0.finding, $1.finding) }
    }
}
