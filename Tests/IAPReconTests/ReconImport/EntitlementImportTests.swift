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

/// The backend's entitlements (CONTRACT §1.8): one row per user and original transaction id, bad rows kept.
@Suite struct EntitlementImportTests {
    let dir = TemporaryDirectory("entitlements")

    func store() throws -> ReconStore {
        try ReconStore(path: dir.file("s.sqlite"), clock: ManualClock(millis: 1_795_176_000_000))
    }

    @Test func importsRowsKeepsBadOnesAndUpdatesOnReimport() throws {
        let store = try store()
        let csv = try dir.write(
            "entitlements.csv",
            """
            user_id,original_transaction_id,product_id,expires_at,environment,updated_at
            u1,2000000111,pro_monthly,2026-12-01 10:00:00+00,Production,2026-11-01T10:00:00Z
            u2,2000000222,pro_monthly,,Production,
            u3,2000000333,pro_monthly,2026-12-01T10:00:00,,
            u4,2000000444,pro_yearly,1796000000000,Sandbox,

            """)
        let summary = try Importer().run(ImportRequest(entitlements: [csv]), into: store)
        #expect(summary.map(\.line) == ["entitlements \(csv): read 4, accepted 2, rejected 2"])
        let rows = try store.entitlements.entitlements()
        #expect(rows.map(\.originalTransactionID) == ["2000000111", "2000000444"])
        #expect(rows.first?.expiresAt == Timestamp.parse("2026-12-01T10:00:00Z"))
        #expect(rows.last?.environment == .sandbox)
        let rejected = try store.ledger.rejectedRows()
        #expect(rejected.map(\.reason).contains("missing required field 'expires_at'"))
        #expect(rejected.map(\.recordID).contains("2000000333"))

        let jsonl = try dir.write(
            "entitlements.jsonl",
            #"{"user_id":"u1","original_transaction_id":"2000000111","product_id":"pro_monthly","expires_at":"2027-01-01T10:00:00Z"}"#
                + "\n")
        _ = try Importer().run(ImportRequest(entitlements: [jsonl]), into: store)
        #expect(try store.entitlements.entitlements().first?.expiresAt == Timestamp.parse("2027-01-01T10:00:00Z"))
        #expect(try store.entitlements.entitlements().count == 2)
    }
}
