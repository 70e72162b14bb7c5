import AppleData
import ReconModel

/// Writes of imported rows: idempotent upserts and kept rejections.
extension SQLLedgerImport {
    package func writer(bulk: Bool) throws(StoreError) -> any LedgerWriter {
        try SQLLedgerWriter(store: store, bulk: bulk)
    }

    /// Whether the ledger is empty (a first, bulk load can then build indexes afterwards).
    package func ledgerIsEmpty() throws(StoreError) -> Bool {
        try db.scalar("SELECT NOT EXISTS (SELECT 1 FROM transactions)") == 1
    }

    /// Starts a first load into an empty ledger: one transaction, in which the ledger's indexes are dropped, rows are
    /// appended in file order, and ``finishBulkLoad()`` builds the indexes once by sorting.
    ///
    /// A crash (or an error) rolls the whole load back to the empty ledger, so a rerun loads again. The rollback
    /// journal replaces WAL for the load (new pages are written once instead of twice: a rollback journal holds only
    /// pages that existed before); if another connection holds the store, WAL simply stays on. Sorts spill to
    /// temporary files, not memory, so memory stays flat in rows.
    package func beginBulkLoad() throws(StoreError) {
        try? db.pragma("journal_mode=DELETE")
        try db.pragma("temp_store=FILE", context: "preparing a bulk load")
        try db.execute(db.dialect.beginWrite, context: "starting a bulk load")
        do {
            // Every row is new: the next report judges everything rather than list each one as changed.
            try store.revenue.forgetDetectionState()
            try dropTransactionIndexes()
            try setLedgerTriggersAside()
        } catch {
            abortBulkLoad()
            throw error
        }
    }

    /// Ends a bulk load: builds the indexes and commits.
    ///
    /// A record id the load saw twice keeps its last row, as upserts one by one would have.
    package func finishBulkLoad() throws(StoreError) {
        try createTransactionIndexes()
        try restoreLedgerTriggers()
        try db.execute("COMMIT", context: "committing a bulk load")
    }

    /// Rolls a bulk load back: the ledger is empty again, with its indexes.
    package func abortBulkLoad() {
        try? db.execute("ROLLBACK")
    }

    /// After a bulk load, committed or not: WAL and in-memory temporary storage are back on.
    package func endBulkLoad() {
        try? db.pragma("temp_store=MEMORY")
        try? db.pragma("journal_mode=WAL")
    }

    /// Drops the ledger's triggers for a bulk first load, keeping their SQL in `temp.bulk_load_triggers` for
    /// ``restoreLedgerTriggers()``.
    ///
    /// They note changed rows only once a report has kept something, and the load has just forgotten that
    /// (``SQLRevenue/forgetDetectionState()``), so they would note nothing. But an insert that may run a trigger
    /// is a statement SQLite can only undo with a statement journal, and in one long transaction every row's insert
    /// then wrote the ledger's last page (16 KB) to that journal: 17 GB through `pwrite` for a 1,000,000-row load,
    /// most of the load's time in the kernel. Without a trigger or an index, an insert writes one row and needs no
    /// statement journal.
    package func setLedgerTriggersAside() throws(StoreError) {
        if db.dialect == .postgres {
            try db.execute("ALTER TABLE transactions DISABLE TRIGGER USER", context: "preparing a bulk load")
            return
        }
        try db.execute(
            [
                "DROP TABLE IF EXISTS bulk_load_triggers",
                """
                CREATE TEMP TABLE bulk_load_triggers AS
                    SELECT name, sql FROM main.sqlite_master WHERE type = 'trigger' AND tbl_name = 'transactions'
                """,
            ], context: "preparing a bulk load")
        let names = try db.prepare("SELECT name FROM bulk_load_triggers ORDER BY name")
        var dropped: [String] = []
        while try names.step() { dropped.append(names.text(0)) }
        for name in dropped {
            try db.execute("DROP TRIGGER \"\(name)\"", context: "preparing a bulk load")
        }
    }

    /// Creates again the triggers ``setLedgerTriggersAside()`` dropped, from their SQL as it was.
    package func restoreLedgerTriggers() throws(StoreError) {
        if db.dialect == .postgres {
            try db.execute("ALTER TABLE transactions ENABLE TRIGGER USER", context: "finishing a bulk load")
            return
        }
        let kept = try db.prepare("SELECT sql FROM bulk_load_triggers ORDER BY name")
        var definitions: [String] = []
        while try kept.step() { definitions.append(kept.text(0)) }
        for sql in definitions { try db.execute(sql, context: "finishing a bulk load") }
        try db.execute("DROP TABLE bulk_load_triggers", context: "finishing a bulk load")
    }

    /// Drops the ledger's secondary indexes before a bulk first load.
    package func dropTransactionIndexes() throws(StoreError) {
        for index in Schema.transactionIndexes {
            try db.execute("DROP INDEX IF EXISTS \(index.name)", context: "preparing a bulk load")
        }
    }

    /// Builds the ledger's secondary indexes after a bulk load, SQLite's sorter on every core.
    ///
    /// The sorter keeps runs of the cache's size in memory and merges them from temporary files (`temp_store=FILE`
    /// during the load), so a small cache keeps memory flat in rows and is faster too: a 4 MB run is sorted in the
    /// CPU's cache (measured on 1,000,000 UUID keys: 2.4 s of CPU and 21 MB with 4 MB runs, 3.5 s and 133 MB with 64
    /// MB runs).
    ///
    /// Rows of a record id seen more than once are reduced to the last one: when the unique index finds one seen
    /// twice under one original transaction id, before it is built; then when the built index (record id first)
    /// finds one under two.
    package func createTransactionIndexes() throws(StoreError) {
        // PostgreSQL sorts an index build in `maintenance_work_mem` (64 MB by default) and spills the rest to temporary
        // files: for the load's transaction, room for a million-row ledger's keys in the server's memory.
        if db.dialect == .postgres {
            try db.execute("SET LOCAL maintenance_work_mem = '256MB'", context: "preparing index builds")
        }
        // Sorted on every core (``SQLiteDatabase/sortThreads``), in small runs.
        try db.pragma("cache_size = -4096", context: "preparing index builds")
        defer { try? db.pragma("cache_size = -65536") }
        for index in Schema.transactionIndexes {
            // PostgreSQL aborts the transaction at a failed statement: the unique index is tried under a savepoint,
            // so the load can go on when a record id appears twice.
            let savepoint = db.dialect == .postgres && index.name == "transactions_by_record"
            do {
                if savepoint { try db.execute("SAVEPOINT unique_records", context: "building index \(index.name)") }
                try db.execute(index.sql, context: "building index \(index.name)")
                if savepoint {
                    try db.execute("RELEASE SAVEPOINT unique_records", context: "building index \(index.name)")
                }
            } catch {
                guard index.name == "transactions_by_record", Self.isDuplicateKey(error) else { throw error }
                if savepoint {
                    try db.execute("ROLLBACK TO SAVEPOINT unique_records", context: "building index \(index.name)")
                }
                try keepLastRowOfEachRecord()
                try db.execute(index.sql, context: "building index \(index.name)")
            }
        }
        let repeated = try db.scalar(
            "SELECT EXISTS (SELECT record_id FROM transactions GROUP BY record_id HAVING COUNT(*) > 1)")
        if repeated == 1 { try keepLastRowOfEachRecord() }
    }

    /// Whether building a unique index failed on a key seen twice.
    private static func isDuplicateKey(_ error: StoreError) -> Bool {
        switch error {
        case .sqlite(let code, _, _): return code & 0xFF == 19  // SQLITE_CONSTRAINT
        case .postgres(let state, _, _): return state == "23505"  // unique_violation
        default: return false
        }
    }

    /// Deletes every ledger row that a later row of the same record id replaces.
    ///
    /// Rows are in load order: SQLite's row ids, PostgreSQL's row positions (`ctid`: the load only appended).
    ///
    /// On Citus a record's rows may sit on several shards (one per original transaction id), where row positions do
    /// not compare: the load order is the input file's id (numbered as the load opened the files) and line, and each
    /// record's last row is a materialized set the shards are compared with.
    private func keepLastRowOfEachRecord() throws(StoreError) {
        if db.isCitus {
            try db.execute(
                """
                WITH last_rows AS MATERIALIZED (
                    SELECT DISTINCT ON (record_id) record_id, original_transaction_id, source_file_id, source_line
                    FROM transactions WHERE record_id IN (
                        SELECT record_id FROM transactions GROUP BY record_id HAVING COUNT(*) > 1)
                    ORDER BY record_id NULLS FIRST, source_file_id DESC, source_line DESC)
                DELETE FROM transactions WHERE record_id IN (SELECT record_id FROM last_rows)
                    AND (record_id, original_transaction_id, source_file_id, source_line) NOT IN (
                        SELECT record_id, original_transaction_id, source_file_id, source_line FROM last_rows)
                """, context: "keeping the last row of each record id")
            return
        }
        let position = db.dialect == .sqlite ? "rowid" : "ctid"
        try db.execute(
            [
                "CREATE INDEX transactions_by_record_load ON transactions(record_id)",
                """
                DELETE FROM transactions WHERE EXISTS (
                    SELECT 1 FROM transactions AS later
                    WHERE later.record_id = transactions.record_id AND later.\(position) > transactions.\(position))
                """,
                "DROP INDEX transactions_by_record_load",
            ], context: "keeping the last row of each record id")
    }

    /// Gives an import a larger page cache (restored by ``endImport()``).
    package func beginImport() throws(StoreError) {
        try db.pragma("cache_size = -65536", context: "preparing an import")
    }

    package func endImport() {
        try? db.pragma("cache_size = -8192")
    }

    package func beginBatch() throws(StoreError) {
        try db.execute(db.dialect.beginWrite, context: "starting an import batch")
    }

    package func commitBatch() throws(StoreError) {
        try db.execute("COMMIT", context: "committing an import batch")
    }

    package func rollbackBatch() {
        try? db.execute("ROLLBACK")
    }
}
