import Foundation
import IAPReconTestSupport
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// How the ledger is written: a first load appends and indexes once; a re-import skips the rows
/// it finds stored unchanged and rewrites the others, with the same result as rewriting all.
@Suite struct LedgerLoadTests {
    let dir = TemporaryDirectory("ledger-load")

    func store(at millis: Int64 = 1_795_176_000_000) throws -> ReconStore {
        try ReconStore(path: dir.file("store.sqlite"), clock: ManualClock(millis: millis))
    }

    /// Every ledger row with where it came from and when it was last written.
    func stored(_ store: ReconStore) throws -> [String] {
        let statement = try store.db.prepare(
            """
            SELECT record_id, user_id, transaction_id, verification_status, source_file_id, source_line,
                imported_at, IFNULL(recon_verdict, '-')
            FROM transactions ORDER BY record_id
            """)
        var rows: [String] = []
        while try statement.step() {
            rows.append(
                (0..<8).map { statement.isNull(Int32($0)) ? "NULL" : statement.text(Int32($0)) }.joined(separator: " "))
        }
        return rows
    }

    static let rows = [
        "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,",
        "r2,u2,p,t2,,2026-11-20T00:00:00Z,1,production,0.99,USD,USA,verified,,,",  // the general path
        "r3,u3,p,t3,,garbage,1,Production,0.99,USD,USA,verified,,,",  // rejected
        "r4,u4,p,t4,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,",
    ]

    func ledger(_ rows: [String]) -> String { ([ledgerHeader] + rows).joined(separator: "\n") + "\n" }

    @Test func reimportingAnUnchangedFileRewritesNothing() throws {
        let path = try dir.write("t.csv", ledger(Self.rows))
        _ = try Importer().run(ImportRequest(transactions: [path]), into: try store())
        let before = try stored(try store())
        // A later import of the same file: no row is written again (each keeps its import time).
        let later = try store(at: 1_795_176_000_000 + 3_600_000)
        let summary = try Importer().run(ImportRequest(transactions: [path]), into: later)
        #expect(summary.map(\.line) == ["transactions \(path): read 4, accepted 3, rejected 1"])
        #expect(try stored(later) == before)
        #expect(try later.ledger.rejectedRows().map(\.line) == [4])
    }

    @Test func aReimportRewritesExactlyTheChangedRows() throws {
        let path = try dir.write("t.csv", ledger(Self.rows))
        _ = try Importer().run(ImportRequest(transactions: [path]), into: try store())
        try store().db.execute("UPDATE transactions SET recon_verdict = 'verified' WHERE record_id IN ('r1', 'r4')")
        var changed = Self.rows
        changed[0] = "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,2026-11-20T00:01:00Z,,"
        changed[3] = "r4,u4,p,t9,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,"
        try dir.write("t.csv", ledger(changed))
        let later = try store(at: 1_795_179_600_000)
        _ = try Importer().run(ImportRequest(transactions: [path]), into: later)
        #expect(
            try stored(later) == [
                // Delivered since: rewritten, and its verdict kept (same transaction).
                "r1 u1 t1 pending 1 2 1795179600000 verified",
                "r2 u2 t2 verified 1 3 1795176000000 -",
                // Another transaction id at the source: rewritten, and verified again.
                "r4 u4 t9 verified 1 5 1795179600000 -",
            ])
    }

    /// A record id that moves to another line, or appears twice, ends as the last row says,
    /// whether the chunk's stored hashes said "unchanged" for one of its lines or not.
    ///
    /// A row moved unchanged is not written again: it keeps the line and time of the import that
    /// wrote its values (``UnchangedLedgerRows``).
    @Test(arguments: [
        (
            ["r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,"],
            [
                "r2,u2,p,t2,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,",
                "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,",
            ]
        ),
        (
            [
                "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,",
                "r1,u9,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,",
            ],
            [
                "r1,u8,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,",
                "r1,u9,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,",
            ]
        ),
    ])
    func movedAndRepeatedRecordsEndAsTheLastRowSays(first: [String], second: [String]) throws {
        let path = try dir.write("t.csv", ledger(first))
        _ = try Importer().run(ImportRequest(transactions: [path]), into: try store())
        try dir.write("t.csv", ledger(second))
        let store = try store(at: 1_795_179_600_000)
        _ = try Importer().run(ImportRequest(transactions: [path]), into: store)
        let lastLine = second.lastIndex { $0.hasPrefix("r1,") }! + 2
        let user = second[lastLine - 2].split(separator: ",")[1]
        let rows = second.filter { $0.hasPrefix("r1,") }
        if rows.count == 1, let stored = first.lastIndex(where: { $0.hasPrefix("r1,") }), first[stored] == rows[0] {
            #expect(try self.stored(store).first == "r1 \(user) t1 pending 1 \(stored + 2) 1795176000000 -")
        } else {
            #expect(try self.stored(store).first == "r1 \(user) t1 pending 1 \(lastLine) 1795179600000 -")
        }
        #expect(try store.ledger.counts().transactions == Set(second.map { $0.prefix(3) }).count)
    }

    /// A first load that sees a record id twice keeps its last row, as row-by-row upserts do.
    @Test func aFirstLoadKeepsTheLastRowOfARepeatedRecord() throws {
        let rows = [
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,",
            "r2,u2,p,t2,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,",
            "r1,u9,p,t1,,2026-11-20T00:00:00Z,1,production,0.99,USD,USA,verified,,,",
        ]
        let path = try dir.write("t.csv", ledger(rows))
        let bulk = try store()
        _ = try Importer().run(ImportRequest(transactions: [path]), into: bulk)
        let rowByRow = try ReconStore(
            path: dir.file("row-by-row.sqlite"), clock: ManualClock(millis: 1_795_176_000_000))
        _ = try Importer().importFile(path, kind: .transactions, into: rowByRow)
        #expect(try stored(bulk) == stored(rowByRow))
        #expect(try stored(bulk) == ["r1 u9 t1 verified 1 4 1795176000000 -", "r2 u2 t2 pending 1 3 1795176000000 -"])
        // The unique index exists again: a later import upserts by record id.
        _ = try Importer().run(ImportRequest(transactions: [path]), into: bulk)
        #expect(try bulk.ledger.counts().transactions == 2)
    }

    /// A store written before the ledger became a rowid table keeps every row and verdict.
    @Test func aLedgerOfTheEarlierSchemaIsMigratedWithItsVerdicts() throws {
        let path = dir.file("old.sqlite")
        do {
            let db = try SQLiteDatabase(path: path)
            try db.execute(
                "CREATE TABLE schema_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at INTEGER NOT NULL)")
            for migration in Schema.migrations.prefix(while: { !$0.name.hasPrefix("issue13-") }) {
                try db.execute(migration.sql)
                try db.prepare("INSERT INTO schema_migrations (name, applied_at) VALUES ($1, 0)").run([
                    .text(migration.name)
                ])
            }
            try db.execute(
                """
                INSERT INTO import_files (file_id, path) VALUES (1, 't.csv');
                INSERT INTO transactions (record_id, user_id, product_id, transaction_id, original_transaction_id,
                    purchase_date, quantity, environment, verification_status, source_file_id, source_line,
                    imported_at, recon_verdict, recon_verification_id)
                VALUES ('r1', 'u1', 'p', 't1', 't1', 1795176000000, 1, 'Production', 'pending', 1, 2, 5, 'verified', 7);
                """)
        }
        let store = try ReconStore(path: path, clock: ManualClock(millis: 1_795_176_000_000))
        #expect(try stored(store) == ["r1 u1 t1 pending 1 2 5 verified"])
        #expect(try store.ledger.counts().pending == 0)
        // Rows without a stored hash are rewritten by the next import, keeping the verdict.
        let csv = try dir.write("t.csv", ledger([Self.rows[0]]))
        _ = try Importer().run(ImportRequest(transactions: [csv]), into: store)
        #expect(try stored(store) == ["r1 u1 t1 pending 2 2 1795176000000 verified"])
    }
}
