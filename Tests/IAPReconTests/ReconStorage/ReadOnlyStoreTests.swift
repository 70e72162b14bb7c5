import Foundation
import IAPReconTestSupport
import Logging
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

/// `lookup` and `serve` open the store read-only: they never create a file, never migrate,
/// never write (https://www.sqlite.org/c3ref/open.html, SQLITE_OPEN_READONLY).
@Suite struct ReadOnlyStoreTests {
    let dir = TemporaryDirectory("read-only")

    @Test func aMissingStoreIsNamedAndNotCreated() throws {
        let path = dir.file("missing.sqlite")
        #expect(throws: StoreError.noStore(path: path)) { try ReconStore(path: path, .readOnly) }
        #expect(StoreError.noStore(path: path).errorDescription == "no store at \(path)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func anExistingStoreReadsButRefusesEveryWrite() throws {
        let path = dir.file("s.sqlite")
        _ = try ReconStore(path: path)
        let store = try ReconStore(path: path, .readOnly)
        #expect(try store.lookup.ledgerRows(userID: "u1").isEmpty)
        #expect(throws: StoreError.self) { try store.ledgerImport.beginBatch() }
        #expect(throws: StoreError.self) {
            try store.ledgerImport.writer(bulk: false).reject(
                RejectedRow(kind: .transactions, source: "t.csv", line: 2, recordID: nil, reason: "x", raw: ""))
        }
    }

    @Test func anEmptyFileIsNotAStoreAndStaysEmpty() throws {
        let path = try dir.write("empty.sqlite", "")
        #expect(throws: StoreError.cannotOpen(path: path, message: "not an iap-recon store (no schema)")) {
            try ReconStore(path: path, .readOnly)
        }
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 0, "no schema written")
    }

    @Test func garbageIsNotAStore() throws {
        let path = try dir.write("bad.sqlite", String(repeating: "garbage ", count: 512))
        #expect(throws: StoreError.cannotOpen(path: path, message: "not an iap-recon store (not an SQLite database)")) {
            try ReconStore(path: path, .readOnly)
        }
    }

    @Test func anOlderSchemaIsNotMigratedByAReader() throws {
        let path = dir.file("old.sqlite")
        do {
            let store = try ReconStore(path: path)
            try store.db.execute(
                "DELETE FROM schema_migrations WHERE rowid = (SELECT MAX(rowid) FROM schema_migrations)")
        }
        let known = ReconStore.schemaVersion
        #expect(throws: StoreError.olderSchema(path: path, found: known - 1, known: known)) {
            try ReconStore(path: path, .readOnly)
        }
    }
}
