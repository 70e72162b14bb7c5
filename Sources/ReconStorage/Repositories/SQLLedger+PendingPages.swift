import AppleData
import ReconModel

/// The pending ledger rows the verification works through, a page at a time: memory stays at one
/// page however many rows are pending (CONTRACT §3).
extension SQLLedger {

    /// The condition on `transactions t` of a row still to verify.
    private static let pendingCondition = "t.verification_status = 'pending' AND t.recon_verdict IS NULL"

    /// One page of the receipts (in the store) that pending rows name, in receipt-id order after
    /// `cursor`, each with its pending rows in purchase order.
    package func pendingReceiptGroups(after cursor: String?, limit: Int) throws -> [PendingReceiptGroup] {
        let ids = try db.prepare(
            """
            SELECT DISTINCT t.receipt_id FROM transactions t
            WHERE t.receipt_id > $1 AND \(Self.pendingCondition)
                AND EXISTS (SELECT 1 FROM receipts r WHERE r.receipt_id = t.receipt_id)
            ORDER BY t.receipt_id NULLS FIRST LIMIT $2
            """)
        try ids.bind([.text(cursor ?? ""), .integer(Int64(limit))])
        var receiptIDs: [String] = []
        while try ids.step() { receiptIDs.append(ids.text(0)) }
        let receipts = try store.receipts.receiptsForVerification(ids: receiptIDs)
        let rows = try db.prepare(
            """
            SELECT \(TransactionsRow.columns) FROM transactions t
            WHERE t.receipt_id = $1 AND \(Self.pendingCondition) ORDER BY t.purchase_date NULLS FIRST, t.record_id NULLS FIRST
            """)
        var groups: [PendingReceiptGroup] = []
        groups.reserveCapacity(receiptIDs.count)
        var reader = TransactionsRow.Reader()
        for id in receiptIDs {
            guard let (receipt, check) = receipts[id] else { continue }
            try rows.bind([.text(id)])
            var group = PendingReceiptGroup(receipt: receipt, check: check, rows: [])
            while try rows.step() { group.rows.append(try reader.read(rows)) }
            groups.append(group)
        }
        return groups
    }

    /// One page of the pending rows without a receipt in the store, in record-id order after `cursor`.
    package func pendingRowsWithoutReceipt(after cursor: String?, limit: Int) throws -> [LedgerTransaction] {
        let stmt = try db.prepare(
            """
            SELECT \(TransactionsRow.columns) FROM transactions t
            WHERE t.record_id > $1 AND \(Self.pendingCondition)
                AND (t.receipt_id IS NULL OR NOT EXISTS (SELECT 1 FROM receipts r WHERE r.receipt_id = t.receipt_id))
            ORDER BY t.record_id NULLS FIRST LIMIT $2
            """)
        try stmt.bind([.text(cursor ?? ""), .integer(Int64(limit))])
        var rows: [LedgerTransaction] = []
        var reader = TransactionsRow.Reader()
        while try stmt.step() { rows.append(try reader.read(stmt)) }
        return rows
    }

    /// How many jobs the pages above hold: one per receipt named by pending rows, one per pending row without one.
    package func pendingJobCount() throws -> Int {
        let withReceipt = try db.scalar(
            """
            SELECT COUNT(DISTINCT t.receipt_id) FROM transactions t
            WHERE t.receipt_id IS NOT NULL AND \(Self.pendingCondition)
                AND EXISTS (SELECT 1 FROM receipts r WHERE r.receipt_id = t.receipt_id)
            """)
        let without = try db.scalar(
            """
            SELECT COUNT(*) FROM transactions t WHERE \(Self.pendingCondition)
                AND (t.receipt_id IS NULL OR NOT EXISTS (SELECT 1 FROM receipts r WHERE r.receipt_id = t.receipt_id))
            """)
        return Int((withReceipt ?? 0) + (without ?? 0))
    }
}

/// A receipt in the store with the pending rows that name it.
package struct PendingReceiptGroup {
    package var receipt: UploadedReceipt
    package var check: ReceiptCheck?
    package var rows: [LedgerTransaction]
}
