import Foundation
import IAPReconTestSupport
import Testing

@testable import ReconModel
@testable import ReconStorage

/// Every stored row's hash by record id, as a re-export under another name looks its rows up: each stored record
/// found with its row hash, whatever the ledger's size (the buckets' edges), an absent one not, and a ledger over the
/// budget not read at all.
@Suite struct StoredRowHashesTests {
    let dir = TemporaryDirectory("stored-row-hashes")

    /// A store whose ledger holds `count` rows (`r0`, `r1`, …), row `n` with row hash `n * 7919 - 3`.
    func store(rows count: Int) throws -> ReconStore {
        let store = try ReconStore(path: dir.file("s-\(count).sqlite"), clock: ManualClock(millis: 0))
        try store.db.execute("INSERT INTO import_files (file_id, path) VALUES (1, 'ledger.csv')")
        let insert = try store.db.prepare(
            """
            INSERT INTO transactions (record_id, user_id, product_id, transaction_id, original_transaction_id,
                purchase_date, quantity, environment, verification_status, source_file_id, source_line, imported_at,
                row_hash)
            VALUES ($1, 'u', 'p', $1, $1, 0, 1, 'Production', 'pending', 1, $2, 0, $3)
            """)
        try store.db.execute("BEGIN")
        for n in 0..<count {
            try insert.run([.text("r\(n)"), .integer(Int64(n + 2)), .integer(Int64(n) * 7919 - 3)])
        }
        try store.db.execute("COMMIT")
        return store
    }

    /// The hash a record id is looked up by.
    func key(_ record: String) -> UInt64 { RowHash.hash(record, seed: 0) }

    @Test(arguments: [0, 1, 3, 4, 5, 17, 1_000, 5_000])
    func everyStoredRecordIsFoundWithItsRowHash(rows: Int) throws {
        let hashes = try #require(try StoredRowHashes.read(from: store(rows: rows).db, maximumRows: rows + 1))
        #expect(hashes.count == rows)
        for n in 0..<rows { #expect(hashes.rowHash(ofRecord: key("r\(n)")) == Int64(n) * 7919 - 3) }
        for n in rows..<(rows + 50) { #expect(hashes.rowHash(ofRecord: key("r\(n)")) == nil) }
        #expect(hashes.rowHash(ofRecord: 0) == nil)
        #expect(hashes.rowHash(ofRecord: .max) == nil)
    }

    @Test func aLedgerOverTheBudgetIsNotRead() throws {
        let store = try store(rows: 10)
        #expect(try StoredRowHashes.read(from: store.db, maximumRows: 9) == nil)
        #expect(try StoredRowHashes.read(from: store.db, maximumRows: 10)?.count == 10)
    }

    /// A re-export under another name of a ledger too large for the budget: its unchanged rows are still found, by
    /// one probe each, and its changed ones are not.
    @Test(arguments: [17 * 40, 17 * 39])
    func unchangedRowsAreFoundWithinOrOverTheBudget(budgetBytes: Int) throws {
        let store = try store(rows: 40)
        let unchanged = UnchangedLedgerRows(db: store.db, budgetBytes: budgetBytes)
        try unchanged.prepare(firstLine: 2, lastLine: 41, fileID: 2)
        var found: [Bool] = []
        for n in 0..<40 {
            var record = "r\(n)"
            let stored = UInt64(bitPattern: Int64(n) * 7919 - 3)
            found.append(
                try record.withUTF8 { bytes in
                    try unchanged.isStoredUnchanged(
                        line: n + 2, hash: n % 10 == 9 ? stored + 1 : stored, recordID: UnsafeRawBufferPointer(bytes))
                })
        }
        #expect(found == (0..<40).map { $0 % 10 != 9 })
        #expect(unchanged.skipped == 36)
    }
}
