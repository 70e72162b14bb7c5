import AppleData
import ReconModel

/// A ledger record that names another original transaction id than it did moves: its row is deleted and written
/// anew, never updated in place.
///
/// The ledger's unique key is the record id and the original transaction id (docs/store.md, "The store on
/// Citus": every key of a table distributed by the original transaction id includes it, and a row under another
/// original transaction id lives on another shard). So an upsert by that key writes a record under its new original
/// transaction id beside its old row, and each written row is noted; ``settleMoves()`` then deletes the old rows, in
/// the same transaction, before anything is committed. When a file names one record twice, its last row wins, as it
/// does in a first load (``SQLLedgerImport/finishBulkLoad()``).
extension SQLLedgerWriter {
    /// Notes one written ledger row (its record id, line and original transaction id, bound by `bind`).
    func noteWritten(_ bind: (any StoreStatement) throws(StoreError) -> Void) throws(StoreError) {
        let statement: any StoreStatement
        if let noteWritten {
            statement = noteWritten
        } else {
            let text = store.db.dialect.text
            try store.db.execute(
                """
                CREATE TEMP TABLE IF NOT EXISTS written_records (
                    record_id \(text) NOT NULL, line \(store.db.dialect.integer) NOT NULL,
                    original_transaction_id \(text) NOT NULL, PRIMARY KEY (record_id, line)
                )\(store.db.dialect.withoutRowID)
                """, context: "noting the records written")
            statement = try store.db.prepare(
                RowInsert(into: "written_records", ["record_id", "line", "original_transaction_id"]))
            noteWritten = statement
        }
        statement.reset()
        try bind(statement)
        try statement.runBound()
        notedSinceSettled = true
    }

    /// Deletes the rows of the records written since the last call that are stored under another original
    /// transaction id than the last row written for them names; called before every commit.
    ///
    /// The records' last rows are a materialized set the ledger is compared with, never joined with the temporary
    /// table directly: Citus joins no distributed table with a local one, and sends a set to every shard.
    package func settleMoves() throws(StoreError) {
        if receiptsSinceSettled {
            receiptsSinceSettled = false
            if store.db.isCitus { try noteChangedReceipts() }
        }
        guard notedSinceSettled else { return }
        notedSinceSettled = false
        try store.db.execute(
            [
                """
                WITH last_written AS MATERIALIZED (
                    SELECT w.record_id, w.original_transaction_id FROM written_records w
                    WHERE w.line = (SELECT MAX(l.line) FROM written_records l WHERE l.record_id = w.record_id))
                DELETE FROM transactions WHERE record_id IN (SELECT record_id FROM last_written)
                    AND (record_id, original_transaction_id) NOT IN (
                        SELECT record_id, original_transaction_id FROM last_written)
                """,
                "DELETE FROM written_records",
            ], context: "moving records to their new original transaction id")
    }

    /// On Citus, notes the transactions of the evidence of every receipt this import wrote new or changed.
    ///
    /// A receipt written new or changed has this import's time, as the receipts' triggers note elsewhere
    /// (``CitusLayout/referenceTriggers``); only once a report has kept something. One statement per chunk, run on each shard beside its evidence.
    func noteChangedReceipts() throws(StoreError) {
        try store.db.prepare(
            """
            INSERT INTO dirty_transactions (transaction_id, original_transaction_id)
            SELECT DISTINCT e.transaction_id, e.group_original_transaction_id
            FROM evidence e JOIN receipts r ON r.receipt_id = e.receipt_id
            WHERE r.imported_at = $1 AND EXISTS (SELECT 1 FROM detection_state)
            ON CONFLICT DO NOTHING
            """
        ).run([.integer(now)])
    }
}
