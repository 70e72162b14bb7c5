import Foundation
import IAPReconTestSupport
import Testing

@testable import IAPRecon
@testable import ReconImport
@testable import ReconModel
@testable import ReconStorage

/// A ledger record whose original transaction id changes between exports moves (docs/store.md, "The store on
/// Citus": the ledger's unique key is the record id and the original transaction id): the store keeps one row per
/// record, the last one its file names, on both stores.
@Suite struct RecordMoveTests {
    let dir = TemporaryDirectory("record-move")
    static let clock = ManualClock(millis: 1_795_176_000_000)

    /// A ledger of `rows` given as (record id, original transaction id, user).
    func ledger(_ rows: [(String, String, String)]) -> String {
        let lines = rows.map { record, original, user in
            "\(record),\(user),p,t\(record.dropFirst()),\(original),2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,"
                + "pending,,,"
        }
        return ([ledgerHeader] + lines).joined(separator: "\n") + "\n"
    }

    /// Every stored row as `record original user line`.
    static func stored(_ store: ReconStore) throws -> [String] {
        let statement = try store.db.prepare(
            "SELECT record_id, original_transaction_id, user_id, source_line FROM transactions ORDER BY 1, 2")
        var rows: [String] = []
        while try statement.step() {
            rows.append((0..<4).map { statement.text(Int32($0)) }.joined(separator: " "))
        }
        return rows
    }

    /// Imports `exports` one after the other into `store` under one path (or each under a name of its own), and
    /// returns the rows stored after each.
    func imports(_ exports: [[(String, String, String)]], into store: ReconStore, dated: Bool = false) throws
        -> [[String]]
    {
        try exports.enumerated().map { day, rows in
            let path = try dir.write(dated ? "ledger-\(day).csv" : "ledger.csv", ledger(rows))
            _ = try Importer().run(ImportRequest(transactions: [path]), into: store)
            return try Self.stored(store)
        }
    }

    static let exports: [[(String, String, String)]] = [
        // A first load naming r1 twice under two originals: the last row wins, as in a re-import.
        [("r1", "o1", "u1"), ("r2", "o2", "u2"), ("r1", "o9", "u9")],
        // r1 back under o1 (its line unchanged from the first load's first row), r2 under another original.
        [("r1", "o1", "u1"), ("r2", "o3", "u2")],
        // r2 twice: under o3 (unchanged, stored on line 3) after a row moving it to o4, then r1 moved.
        [("r2", "o4", "u4"), ("r2", "o3", "u2"), ("r1", "o5", "u1")],
    ]

    static let expected = [
        ["r1 o9 u9 4", "r2 o2 u2 3"],
        ["r1 o1 u1 2", "r2 o3 u2 3"],
        ["r1 o5 u1 4", "r2 o3 u2 3"],
    ]

    @Test func aRecordUnderAnotherOriginalTransactionMovesAndLeavesNoTwin() throws {
        let store = try ReconStore(path: dir.file("s.sqlite"), clock: Self.clock)
        #expect(try imports(Self.exports, into: store) == Self.expected)
    }

    /// A re-export under another name that moves a record, then gives its stored row again: the last row wins, though
    /// the stored row it matches is still beside the moved one until the chunk's moves are settled.
    @Test func aRecordMovedThenGivenAsStoredEndsAsItsLastRow() throws {
        let store = try ReconStore(path: dir.file("dated.sqlite"), clock: Self.clock)
        let exports = [
            [("r1", "o1", "u1"), ("r2", "o2", "u2")],
            [("r1", "o9", "u9"), ("r1", "o1", "u1"), ("r2", "o2", "u2")],
        ]
        #expect(try imports(exports, into: store, dated: true).last == ["r1 o1 u1 3", "r2 o2 u2 3"])
    }

    /// The move noted for the next report: the old original transaction's group and the new one's.
    @Test func aMoveIsNotedUnderBothOriginals() throws {
        let store = try ReconStore(path: dir.file("noted.sqlite"), clock: Self.clock)
        _ = try imports([Self.exports[1]], into: store)
        try store.db.execute("INSERT INTO detection_state (id, fingerprint, as_of, counters) VALUES (1, 'f', 1, '{}')")
        _ = try imports([[("r1", "o1", "u1"), ("r2", "o7", "u2")]], into: store)
        let noted = try store.db.prepare("SELECT original_transaction_id FROM dirty_originals ORDER BY 1")
        var originals: [String] = []
        while try noted.step() { originals.append(noted.text(0)) }
        #expect(originals == ["o3", "o7"])
    }
}

extension PostgresTests.Distribution {
    @Test func aRecordUnderAnotherOriginalTransactionMovesInPostgreSQL() throws {
        let store = try ReconStore(path: try database("recordmove"), clock: RecordMoveTests.clock)
        let moves = RecordMoveTests()
        #expect(try moves.imports(RecordMoveTests.exports, into: store) == RecordMoveTests.expected)
        let dated = try ReconStore(path: try database("recordmovedated"), clock: RecordMoveTests.clock)
        let exports = [
            [("r1", "o1", "u1"), ("r2", "o2", "u2")],
            [("r1", "o9", "u9"), ("r1", "o1", "u1"), ("r2", "o2", "u2")],
        ]
        #expect(try moves.imports(exports, into: dated, dated: true).last == ["r1 o1 u1 3", "r2 o2 u2 3"])
    }
}
