import ReconModel

/// Which ledger rows of one import are stored unchanged already, so they are not written again.
///
/// A ledger row is its ``RowHash``: the hash of its text under its file's header, its record id included. A row whose
/// record id is stored with the same row hash is the stored row, value for value, whatever file or line it was read
/// from; writing it again would change nothing a report, `lookup` or `serve` reads. Both must match, the record id
/// (its own hash in memory, itself in a probe) and the row hash: a false skip then needs two texts of one record id
/// with one 64-bit row hash, the odds the same-line check always had (a row hash matched against any stored row's
/// would multiply them by the ledger's size). It is found, cheapest first:
///
/// 1. **at its line**: the stored hashes of the chunk's lines of the same file, one range of the index
///    `transactions_by_source` (a file re-imported under its own path);
/// 2. **by record id, in memory**: once rows stored unchanged turn up at other lines (a re-export under a dated name,
///    or with rows inserted above), every stored row's record id and row hash is read in one pass of the ledger
///    (``StoredRowHashes``), and each row is looked up there;
/// 3. **by record id, one probe**: until then, rows not stored at their line are looked up in the `record_id` index,
///    one by one, the evidence that decides (2): eight found unchanged, and every row is read by record id; eight of
///    a chunk found changed or new, and the chunk's other rows are written without a look. A night of new rows under
///    a new name pays eight probes a chunk, not a pass of the ledger. A ledger too large for (2) within the memory
///    budget stays with probes: one read of the index a row, still no write.
///
/// A skipped row keeps the `source_file_id`, `source_line` and `imported_at` of the import that last wrote it: they
/// say where and when the values the store holds were read, and those values are byte for byte that file line's.
/// Nothing a user sees reads them: `lookup`, `serve` and the reports do not; rejected rows keep their own file and
/// line (`rejected_rows`); the change-noting triggers (`transactions_dirty_*`) ignore them; the bulk load's "last row
/// of each record" goes by row position. Pointing them at the new file would write every row again, the very cost
/// this avoids.
package final class UnchangedLedgerRows {
    /// The store's connection, in the import's transaction.
    private let db: any StoreDatabase
    /// The stored `row_hash` of each line of the current chunk's file and line range.
    private var byLine: [Int: Int64] = [:]
    /// Hashes of the record ids written in the current chunk (an earlier row of the chunk may have moved a record
    /// whose stored line looked unchanged).
    private var writtenInChunk: Set<UInt64> = []
    /// Every stored row's hash by record id, once read; nil before, or when the ledger exceeds the budget.
    private var byRecord: StoredRowHashes?
    /// Hashes of the record ids written since ``byRecord`` was read: their stored rows are no longer what it says.
    private var writtenSinceRead: Set<UInt64> = []
    /// Rows found stored unchanged by a probe of their record id.
    private var probeHits = 0
    /// Probes of the current chunk that found no unchanged row.
    private var probesMissedInChunk = 0
    /// The ledger is too large for ``byRecord`` within the budget: rows are found at their line or by probes.
    private var overBudget = false
    /// The memory ``byRecord`` may take.
    private let budgetBytes: Int
    /// The stored hashes of a file's line range (prepared on first use).
    private var selectByLine: (any StoreStatement)?
    /// The stored hash of one record id (prepared on first use).
    private var selectByRecord: (any StoreStatement)?
    /// Rows found stored unchanged, and not written again.
    package private(set) var skipped = 0

    /// Probes a chunk that find no unchanged row before the chunk's other rows are written without one.
    static let missedProbesPerChunk = 8
    /// Rows found stored unchanged by probes before every row is read by record id.
    static let hitsBeforeReading = 8
    /// The memory ``byRecord`` may take by default (17 bytes a row: a ledger of 5,921,370 rows).
    ///
    /// The import holds about 190 MB of its own at 10,000,000 rows; with the rows' hashes of that ledger (170 MB) it
    /// peaked at 358 MB, over the 300 MB a run may take. Over the budget, every row is probed instead: 73 s against
    /// 21 s there, at 189 MB (docs/benchmarks.md, *The re-export under another name*).
    static let defaultBudgetBytes = 96 << 20

    /// Finds the unchanged rows of one import into the ledger of `db`, holding every stored row's hash by record id
    /// only within `budgetBytes`.
    package init(db: any StoreDatabase, budgetBytes: Int = defaultBudgetBytes) {
        self.db = db
        self.budgetBytes = budgetBytes
    }

    /// Reads the stored hashes of the lines `firstLine...lastLine` of the file `fileID` (one chunk's rows).
    package func prepare(firstLine: Int, lastLine: Int, fileID: Int64) throws(StoreError) {
        byLine.removeAll(keepingCapacity: true)
        writtenInChunk.removeAll(keepingCapacity: true)
        probesMissedInChunk = 0
        guard firstLine <= lastLine else { return }
        let statement: any StoreStatement
        if let selectByLine {
            statement = selectByLine
        } else {
            statement = try db.prepare(
                """
                SELECT source_line, row_hash FROM transactions
                WHERE source_file_id = $1 AND source_line BETWEEN $2 AND $3 AND row_hash IS NOT NULL
                """)
            selectByLine = statement
        }
        try statement.bind([.integer(fileID), .integer(Int64(firstLine)), .integer(Int64(lastLine))])
        while try statement.step() { byLine[Int(statement.int64(0))] = statement.int64(1) }
        statement.reset()
    }

    /// Whether the row at `line` whose text hashes to `hash`, of record id `recordID` (its UTF-8), is stored exactly
    /// so already, and so skipped; when it is not, the caller writes it and it is remembered as written.
    package func isStoredUnchanged(line: Int, hash: UInt64, recordID: UnsafeRawBufferPointer) throws(StoreError)
        -> Bool
    {
        let row = Int64(bitPattern: hash)
        let record = RowHash.hash(recordID, seed: 0)
        if byLine[line] == row, !writtenInChunk.contains(record) {
            skipped += 1
            return true
        }
        if let byRecord {
            if !writtenSinceRead.contains(record), byRecord.rowHash(ofRecord: record) == row {
                skipped += 1
                return true
            }
        } else if probesMissedInChunk < Self.missedProbesPerChunk, !writtenInChunk.contains(record) {
            // The store as it is now. Not a record this chunk wrote: until the chunk's moves are settled
            // (``SQLLedgerWriter/settleMoves()``) its old row, under another original transaction id, is still
            // stored beside the new one, and the probe could read either.
            if try storedHash(of: recordID) == row {
                skipped += 1
                probeHits += 1
                if probeHits >= Self.hitsBeforeReading, !overBudget { try readByRecord() }
                return true
            }
            probesMissedInChunk += 1
        }
        writtenInChunk.insert(record)
        if byRecord != nil { writtenSinceRead.insert(record) }
        return false
    }

    /// The stored row hash of record id `recordID` (one probe of the `record_id` index).
    private func storedHash(of recordID: UnsafeRawBufferPointer) throws(StoreError) -> Int64? {
        let statement: any StoreStatement
        if let selectByRecord {
            statement = selectByRecord
        } else {
            statement = try db.prepare("SELECT row_hash FROM transactions WHERE record_id = $1")
            selectByRecord = statement
        }
        statement.reset()
        guard let base = recordID.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        try statement.bindText(base, count: recordID.count, at: 1)
        defer { statement.reset() }
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.int64(0)
    }

    /// Reads every stored row by record id, unless the ledger is larger than the budget.
    private func readByRecord() throws(StoreError) {
        byRecord = try StoredRowHashes.read(from: db, maximumRows: budgetBytes / 17)
        overBudget = byRecord == nil
    }
}

@available(*, unavailable)
extension UnchangedLedgerRows: Sendable {}
