import ReconModel

/// Every stored ledger row's record id and content hash, read in one pass of the ledger and looked up in memory: how a
/// re-export under another file name (or with its lines moved) finds its unchanged rows without a random page per row.
///
/// A row is its ``RowHash``: the hash of its text under its file's header, record id included. A row of the import
/// whose record id is stored with the same row hash is the stored row exactly, whichever file and line it was read
/// from then. Keyed by the record id's own ``RowHash`` (seed 0) and sorted once, 17 bytes a row: 17 MB for a
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
    private let entries: [Entry]
    /// Where the entries of each bucket (the top ``bucketBits`` bits of a record id hash) start, and one past the
    /// last: a lookup reads its bucket's few entries (about four) instead of a binary search's twenty cache misses
    /// (measured: the search took 17 % of a 1,000,000-row re-export's import).
    private let starts: [UInt32]
    /// The bits of a record id hash that name its bucket.
    private let bucketBits: Int

    /// The rows read.
    package var count: Int { entries.count }

    /// Indexes the buckets of `entries`, sorted by record id hash.
    private init(sorted entries: [Entry]) {
        // About four entries a bucket: the buckets' starts take a byte a row.
        bucketBits = max(0, Int.bitWidth - entries.count.leadingZeroBitCount - 2)
        var starts = [UInt32](repeating: 0, count: (1 << bucketBits) + 1)
        var bucket = 0
        for (index, entry) in entries.enumerated() {
            let own = bucketBits == 0 ? 0 : Int(entry.record >> UInt64(64 - bucketBits))
            while bucket < own {
                bucket += 1
                starts[bucket] = UInt32(index)
            }
        }
        while bucket < 1 << bucketBits {
            bucket += 1
            starts[bucket] = UInt32(entries.count)
        }
        self.entries = entries
        self.starts = starts
    }

    /// Reads every stored row that has a row hash, in the table's own order (one sequential pass, on PostgreSQL a
    /// cursor's batches).
    ///
    /// The rows are counted first (SQLite counts the entries of the smallest index), so the array is allocated once:
    /// grown by doubling, it would hold up to twice the rows' room, and both arrays while it moves.
    ///
    /// - Parameter maximumRows: the most rows to hold (the caller's memory budget, at 17 bytes a row).
    /// - Returns: nil when the ledger holds more rows than that: nothing is read.
    package static func read(from db: any StoreDatabase, maximumRows: Int) throws(StoreError) -> StoredRowHashes? {
        let rows = Int(try db.scalar("SELECT count(*) FROM transactions") ?? 0)
        guard rows <= maximumRows, rows < UInt32.max else { return nil }
        let statement = try db.prepare("SELECT record_id, row_hash FROM transactions WHERE row_hash IS NOT NULL")
        defer { statement.reset() }
        var entries: [Entry] = []
        entries.reserveCapacity(rows)
        while try statement.step() {
            guard entries.count < maximumRows, entries.count < UInt32.max else { return nil }
            entries.append(Entry(record: statement.textHash(0, seed: 0), row: statement.int64(1)))
        }
        // Sorted here, where the array is not shared (the initializer's copy of it would be copied to be sorted).
        entries.sort { $0.record < $1.record }
        return StoredRowHashes(sorted: entries)
    }

    /// The stored row hash of the record id hashing to `record`; nil when no stored row has it, or when two do (two
    /// record ids of one hash: neither is trusted, and their rows are written).
    package func rowHash(ofRecord record: UInt64) -> Int64? {
        let bucket = bucketBits == 0 ? 0 : Int(record >> UInt64(64 - bucketBits))
        var index = Int(starts[bucket])
        let end = Int(starts[bucket + 1])
        while index < end, entries[index].record < record { index += 1 }
        guard index < end, entries[index].record == record else { return nil }
        if index + 1 < end, entries[index + 1].record == record { return nil }
        return entries[index].row
    }
}
