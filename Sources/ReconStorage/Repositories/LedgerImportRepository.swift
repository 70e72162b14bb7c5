import AppleData
import ReconModel

/// The ledger as the import writes it.
///
/// ``SQLLedgerImport`` keeps them in SQLite.
package protocol LedgerImportRepository {
    /// Whether the ledger is empty (a first, bulk load can then build indexes afterwards).
    func ledgerIsEmpty() throws(StoreError) -> Bool

    /// Starts a first load into an empty ledger: one transaction, in which the ledger's indexes are dropped, rows are
    /// appended in file order, and ``finishBulkLoad()`` builds the indexes once by sorting.
    ///
    /// A crash (or an error) rolls the whole load back to the empty ledger, so a rerun loads again. The rollback
    /// journal replaces WAL for the load (new pages are written once instead of twice: a rollback journal holds only
    /// pages that existed before); if another connection holds the store, WAL simply stays on. Sorts spill to
    /// temporary files, not memory, so memory stays flat in rows.
    func beginBulkLoad() throws(StoreError)

    /// Ends a bulk load: builds the indexes and commits.
    ///
    /// A record id the load saw twice keeps its last row, as upserts one by one would have.
    func finishBulkLoad() throws(StoreError)

    /// Rolls a bulk load back: the ledger is empty again, with its indexes.
    func abortBulkLoad()

    /// After a bulk load, committed or not: WAL and in-memory temporary storage are back on.
    func endBulkLoad()

    /// Drops the ledger's secondary indexes before a bulk first load.
    func dropTransactionIndexes() throws(StoreError)

    /// Builds the ledger's secondary indexes after a bulk load, letting SQLite's sorter use both cores.
    ///
    /// The sorter keeps runs of the cache's size in memory and merges them from temporary files (`temp_store=FILE`
    /// during the load), so a small cache keeps memory flat in rows and is faster too: a 4 MB run is sorted in the
    /// CPU's cache (measured on 1,000,000 UUID keys: 2.4 s of CPU and 21 MB with 4 MB runs, 3.5 s and 133 MB with 64
    /// MB runs).
    ///
    /// Before the unique `record_id` index, rows of a record id seen more than once are reduced
    /// to the last one (only when the index finds such ids).
    func createTransactionIndexes() throws(StoreError)

    /// Gives an import a larger page cache (restored by ``endImport()``).
    func beginImport() throws(StoreError)

    func endImport()

    func beginBatch() throws(StoreError)

    func commitBatch() throws(StoreError)

    func rollbackBatch()

    /// A writer of one input's rows; `bulk` inside a bulk load (``beginBulkLoad()``: rows are appended, nothing is
    /// compared).
    func writer(bulk: Bool) throws(StoreError) -> any LedgerWriter
}

extension SQLLedgerImport: LedgerImportRepository {}
