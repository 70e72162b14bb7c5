import AppleData
import Foundation
import ReconModel

/// What the last written report left for the next one to build on (CONTRACT §5 "Incremental reports"), and the
/// transactions the next one judges again.
extension SQLRevenue {

    /// The kept state, if any.
    public func detectionState() throws -> DetectionState? {
        let stmt = try db.prepare("SELECT fingerprint, as_of, counters FROM detection_state WHERE id = 1")
        guard try stmt.step() else { return nil }
        let counters = try JSONDecoder().decode(StoredCounters.self, from: Data(stmt.text(2).utf8))
        return DetectionState(fingerprint: stmt.text(0), asOf: stmt.int64(1), counters: counters.counters)
    }

    /// Forgets the kept state: the next report builds everything (a bulk load changes too much to track).
    package func forgetDetectionState() throws(StoreError) {
        try db.execute(
            ["DELETE FROM detection_state", "DELETE FROM dirty_transactions"], context: "resetting detection")
    }

    /// The transactions changed since the last report, or whose next moment of change (``TransactionGroup/
    /// nextChange(in:)``) came by `asOf`, plus `more`, into `temp.rerun`; returns how many.
    package func prepareRerun(asOf: Int64, more: some Sequence<String>) throws(StoreError) -> Int {
        try db.pragma("temp_store = FILE", context: "listing the changed transactions")
        try db.execute(
            [
                "DROP TABLE IF EXISTS rerun",
                "CREATE TEMP TABLE rerun (transaction_id \(db.dialect.text) PRIMARY KEY NOT NULL)\(db.dialect.withoutRowID)",
                "INSERT INTO rerun SELECT transaction_id FROM dirty_transactions WHERE true ON CONFLICT DO NOTHING",
            ], context: "listing the changed transactions")
        try db.prepare(
            """
            INSERT INTO rerun
            SELECT transaction_id FROM transaction_results WHERE next_change_at IS NOT NULL AND next_change_at <= $1
            ON CONFLICT DO NOTHING
            """
        ).run([.integer(asOf)])
        // The transactions with an event on a day whose Apple reports changed: the proceeds Apple states for a
        // sale's day price it.
        try db.execute(
            """
            INSERT INTO rerun
            SELECT e.transaction_id FROM dirty_report_days d JOIN ledger_events e
                ON e.day BETWEEN d.first_day AND d.last_day
            WHERE true ON CONFLICT DO NOTHING;
            """, context: "listing the changed transactions")
        let insert = try db.prepare(RowInsert(into: "rerun", ["transaction_id"], onConflict: .doNothing(target: nil)))
        for id in more { try insert.run([.text(id)]) }
        try db.execute(
            [
                "DROP TABLE IF EXISTS rerun_originals",
                """
                CREATE TEMP TABLE rerun_originals (
                    original_transaction_id \(db.dialect.text) PRIMARY KEY NOT NULL)\(db.dialect.withoutRowID)
                """,
                """
                INSERT INTO rerun_originals SELECT original_transaction_id FROM dirty_originals WHERE true
                ON CONFLICT DO NOTHING
                """,
            ], context: "listing the changed transactions")
        try db.prepare(
            """
            INSERT INTO rerun_originals
            SELECT original_transaction_id FROM original_results
            WHERE next_change_at IS NOT NULL AND next_change_at <= $1
            ON CONFLICT DO NOTHING
            """
        ).run([.integer(asOf)])
        if db.dialect == .postgres {
            // Autovacuum never analyzes a temporary table: without its size the planner guesses, and joined what it
            // judges again (a few thousand ids) with the whole of a kept table by a scan.
            try db.execute(
                ["ANALYZE rerun", "ANALYZE rerun_originals"], context: "listing the changed transactions")
        }
        return Int(try db.scalar("SELECT COUNT(*) FROM rerun") ?? 0)
    }

    /// The original-transaction groups of `temp.rerun_originals` with two or more ledger rows, as
    /// ``store.ledger.forEachOriginalTransactionGroup(_:)`` reads every one: in original transaction id order.
    public func forEachRerunOriginalTransactionGroup(_ body: (OriginalTransactionGroup) throws -> Void) throws {
        try store.ledger.forEachOriginalTransactionGroup(
            ids: "SELECT original_transaction_id FROM rerun_originals ORDER BY 1 NULLS FIRST", body)
    }

    /// About how many rows the ledger holds (its largest rowid, read in constant time): what a re-run is weighed
    /// against.
    package func ledgerSizeEstimate() throws(StoreError) -> Int {
        if db.isCitus {
            // The coordinator's own table is empty (its `reltuples` reads 0 or −1): the shards' counts, summed, each
            // read in constant time on its node; the rows counted when a shard has none yet (never analyzed).
            return Int(
                try db.scalar(
                    """
                    WITH shard(tuples) AS (
                        SELECT result::float8 FROM run_command_on_shards('transactions',
                            'SELECT reltuples FROM pg_class WHERE oid = ''%s''::regclass') WHERE success)
                    SELECT CASE WHEN EXISTS (SELECT 1 FROM shard WHERE tuples < 0)
                        THEN (SELECT COUNT(*) FROM transactions) ELSE (SELECT SUM(tuples) FROM shard)::bigint END
                    """) ?? 0)
        }
        if db.dialect == .postgres {
            // The planner's count, kept by ANALYZE and autovacuum: constant time, as the row id is in SQLite.
            return Int(
                try db.scalar(
                    "SELECT GREATEST(reltuples, 0)::bigint FROM pg_class WHERE oid = to_regclass('transactions')") ?? 0)
        }
        return Int(try db.scalar("SELECT COALESCE(MAX(rowid), 0) FROM transactions") ?? 0)
    }

    /// The transaction groups listed in `temp.rerun` (``prepareRerun(asOf:more:)``), as
    /// ``store.ledger.forEachTransactionGroup(_:)`` reads every group: in transaction id order.
    public func forEachRerunTransactionGroup(_ body: (TransactionGroup) throws -> Void) throws {
        try store.ledger.forEachTransactionGroup(
            ledgerSQL: """
                SELECT \(TransactionsRow.columns) FROM transactions
                WHERE transaction_id IN (SELECT transaction_id FROM rerun) ORDER BY transaction_id NULLS FIRST, record_id NULLS FIRST
                """,
            evidenceSQL: """
                SELECT \(EvidenceRow.columns) FROM evidence e LEFT JOIN receipts r ON r.receipt_id = e.receipt_id
                WHERE e.transaction_id IN (SELECT transaction_id FROM rerun)
                ORDER BY e.transaction_id NULLS FIRST, e.recorded_at, e.id
                """, body)
    }

    /// The same-purchase index (``SamePurchaseIndex``) as the last report kept it, by transaction id.
    package func samePurchaseShown() throws(StoreError) -> [String: String] {
        let stmt = try db.prepare("SELECT transaction_id, purchase FROM same_purchase_shown")
        var shown: [String: String] = [:]
        while try stmt.step() { shown[stmt.text(0)] = stmt.text(1) }
        return shown
    }
}

/// The counts as `detection_state.counters` keeps them (JSON).
package struct StoredCounters: Codable {
    package var recoveredFromSandbox: [String: Int64]
    package var excludedAsSandbox: [String: Int64]
    package var recoveredTransactions: [String: Int]
    package var excludedTransactions: [String: Int]
    package var unpricedTransactions: Int
    package var duplicateRowsIgnored: Int

    package init(_ counters: RevenueCounters) {
        recoveredFromSandbox = counters.recoveredFromSandbox
        excludedAsSandbox = counters.excludedAsSandbox
        recoveredTransactions = counters.recoveredTransactions
        excludedTransactions = counters.excludedTransactions
        unpricedTransactions = counters.unpricedTransactions
        duplicateRowsIgnored = counters.duplicateRowsIgnored
    }

    package var counters: RevenueCounters {
        var counters = RevenueCounters(
            recoveredFromSandbox: recoveredFromSandbox, excludedAsSandbox: excludedAsSandbox,
            unpricedTransactions: unpricedTransactions, duplicateRowsIgnored: duplicateRowsIgnored)
        counters.recoveredTransactions = recoveredTransactions
        counters.excludedTransactions = excludedTransactions
        return counters
    }

    /// Sorted keys: the same counts are the same text.
    package var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

/// The kept state: what it was worked out with (a digest of the settings, catalog and Apple's reports), its
/// as-of, and the counts beside the revenue lines; nil before the first report of this program (or after a bulk
/// load), when the next report builds everything.
public struct DetectionState: Sendable, Hashable {
    public var fingerprint: String
    public var asOf: Int64
    public var counters: RevenueCounters

    package init(fingerprint: String, asOf: Int64, counters: RevenueCounters) {
        self.fingerprint = fingerprint
        self.asOf = asOf
        self.counters = counters
    }
}
