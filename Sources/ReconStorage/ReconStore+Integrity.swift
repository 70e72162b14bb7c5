import AppleData
import ReconModel

/// What an operator (and the reliability suite) checks after a crash: the file is sound and
/// every settled verification is kept.
extension ReconStore {
    /// SQLite's `PRAGMA integrity_check`: `ok`, or the problems it found, one a line.
    public func integrityCheck() throws(StoreError) -> String {
        let statement = try db.prepare("PRAGMA integrity_check")
        var lines: [String] = []
        while try statement.step() { lines.append(statement.text(0)) }
        return lines.joined(separator: "\n")
    }

    /// Every receipt Apple's verifyReceipt settled (valid or invalid) for all the ledger rows
    /// naming it, with the time of its first settled verification: a rerun must not ask about
    /// it again.
    public func settledReceipts() throws(StoreError) -> [(data: String, settledAt: Int64)] {
        let statement = try db.prepare(
            """
            SELECT r.data, MIN(v.verified_at) FROM verifications v JOIN receipts r ON r.receipt_id = v.receipt_id
            LEFT JOIN transactions t ON t.receipt_id = r.receipt_id
                AND t.verification_status = 'pending' AND t.recon_verdict IS NULL
            WHERE v.outcome IN ('valid', 'invalid') AND v.source = 'verifyReceipt' AND t.receipt_id IS NULL
            GROUP BY r.receipt_id ORDER BY r.receipt_id NULLS FIRST
            """)
        var result: [(data: String, settledAt: Int64)] = []
        while try statement.step() { result.append((statement.text(0), statement.int64(1))) }
        return result
    }
}
