import ReconModel

/// Every stored ledger row's record id and content hash, read in one pass of the ledger and looked up in memory: how a
/// re-export under another file name (or with its lines moved) finds its unchanged rows without a random page per row.
///
/// A row is its ``RowHash``: the hash of its text under its file's header, record id included. A row of the import
/// whose record id is stored with the same row hash is the stored row exactly, whichever file and line it was read
/// from then. Keyed by the record id's own ``RowHash`` (seed 0) and sorted once, 16 bytes a row: 16 MB for a
/// 1,000,000-row ledger, instead of one probe of the `record_id` index per row (keyed by random UUIDs, each probe
/// lands on a page of its own).
///
/// A snapshot: rows written after it was read are the caller's to remember (``UnchangedLedgerRows``).
package struct StoredRowHashes {
    /// One stored row: its record id's hash and its row hash.
    private struct Entry {
        /// The hash of the row's record id.
        var record: UInt64
        /// The row's `row_hash`.
        var row: Int64
    }

    /// The stored rows, by record id hash.
    private var entries: [Entry]

    /// The rows read.
    package var count: Int { entries.count }

    /// Reads every stored row that has a row hash, in the table's own order (one sequential pass, on PostgreSQL a
    /// cursor's batches).
    ///
    /// - Parameter maximumRows: the most rows to hold (the caller's memory budget, at 16 bytes a row).
    /// - Returns: nil when the ledger holds more rows than that: the reading stops there.
    package static func read(from db: SQLiteDatabase, maximumRows: Int) throws(StoreError) -> StoredRowHashes? {
        let statement = try db.prepare("SELECT record_id, row_hash FROM transactions WHERE row_hash IS NOT NULL")
        defer { statement.reset() }
        var entries: [Entry] = []
        while try statement.step() {
            guard entries.count < maximumRows else { return nil }
            entries.append(Entry(record: statement.textHash(0, seed: 0), row: statement.int64(1)))
        }
        entries.sort { $0.record < $1.record }
        return StoredRowHashes(entries: entries)
    }

    /// The stored row hash of the record id hashing to `record`; nil when no stored row has it, or when two do (two
    /// record ids of one hash: neither is trusted, and their rows are written).
    package func rowHash(ofRecord record: UInt64) -> Int64? {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].record < record { low = middle + 1 } else { high = middle }
        }
        guard low < entries.count, entries[low].record == record else { return nil }
        if low + 1 < entries.count, entries[low + 1].record == record { return nil }
        return entries[low].row
    }
}
