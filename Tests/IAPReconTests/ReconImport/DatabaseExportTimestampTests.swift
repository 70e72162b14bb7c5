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

/// Instants as databases export them: PostgreSQL's `timestamptz` text (`+00`, `-08`, `+05:30`,
/// microseconds, a blank between date and time) and other exports' `+0530`, ` UTC`; a time with
/// no offset stays rejected.
@Suite struct DatabaseExportTimestampTests {
    let dir = TemporaryDirectory("db-export-timestamps")

    /// 2026-10-22T12:26:46Z.
    static let instant: Int64 = 1_792_672_006_000

    @Test(arguments: [
        ("2026-10-22 12:26:46+00", instant), ("2026-10-22T12:26:46+00", instant),
        ("2026-10-22 04:26:46-08", instant), ("2026-10-22 17:56:46+05:30", instant),
        ("2026-10-22 17:56:46+0530", instant), ("2026-10-22 12:26:46.123456+00", instant + 123),
        ("2026-10-22 12:26:46.1+00", instant + 100), ("2026-10-22 12:26:46 +00:00", instant),
        ("2026-10-22 12:26:46.000 UTC", instant), ("2026-10-22 12:26:46 utc", instant),
        ("2026-10-22 12:26:46+00:00:00", instant), ("2026-10-22 13:20:14+00:53:28", instant),
        ("2026-10-22 12:26:46,5+00", instant + 500), ("2026-10-22 12:26+00", instant - 46_000),
    ])
    func parsesWhatDatabasesWrite(text: String, millis: Int64) {
        #expect(Timestamp.parse(text) == millis)
    }

    @Test(arguments: [
        "2026-10-22 12:26:46", "2026-10-22 12:26:46.123456", "2026-10-22 12:26:46 ", "2026-10-22 12:26:46+",
        "2026-10-22 12:26:46+0", "2026-10-22 12:26:46+053", "2026-10-22 12:26:46+24", "2026-10-22 12:26:46+05:60",
        "2026-10-22 12:26:46  +00", "2026-10-22 12:26:46 EST", "2026-10-22 12:26:46+05:30:", "2026-10-22 12:26:46UTCX",
        "2026-10-22 12:26:46+0530:00",
    ])
    func keepsRejectingATimeWithNoOrABadOffset(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    /// `\copy (SELECT …) TO 'ledger.csv' CSV HEADER` output: PostgreSQL's `timestamptz` text, `numeric`
    /// as written, empty fields for NULL; every row accepted, by the fast path and the general path
    /// alike (a quoted field sends a row the general way).
    @Test func importsAPostgreSQLCopyExport() throws {
        let text = """
            record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,environment,price,currency,storefront,verification_status,delivered_at,finished_at,receipt_id
            1001,u1,coins_100,2000000101,2000000101,2026-10-22 12:26:46+00,1,Production,0.99,USD,USA,verified,2026-10-22 12:26:47.512+00,2026-10-22 12:26:49.04+00,
            1002,u2,coins_100,2000000102,,2026-10-22 04:26:46-08,2,Production,4.99,USD,USA,verified,2026-10-22 04:26:47-08,,
            1003,"u3, the third",pro,2000000103,,2026-10-22 17:56:46+05:30,1,Sandbox,199,INR,IND,pending,,,rc-3
            1004,u4,pro,2000000104,,2026-10-22 12:26:46,1,Production,0.99,USD,USA,verified,,,

            """
        let path = try dir.write("ledger.csv", text)
        let store = try ReconStore(path: dir.file("store.sqlite"), clock: ManualClock(millis: 1_795_176_000_000))
        let summary = try Importer().importFile(path, kind: .transactions, into: store)
        #expect(summary.read == 4)
        #expect(summary.accepted == 3)
        #expect(summary.rejected == 1)
        var rows: [LedgerTransaction] = []
        try store.ledger.forEachTransactionGroup { rows += $0.records }
        rows.sort { $0.recordID < $1.recordID }
        #expect(rows.map(\.purchaseDate) == [Self.instant, Self.instant, Self.instant])
        #expect(rows.first?.deliveredAt == Self.instant + 1_512)
        #expect(rows.first?.finishedAt == Self.instant + 3_040)
        #expect(rows.dropFirst().first?.price == Money(milliunits: 4_990, currency: "USD"))
        #expect(rows.last?.userID == "u3, the third")
        let rejected = try store.ledger.rejectedRows()
        #expect(rejected.map(\.line) == [5])
        #expect(rejected.first?.reason.contains("bad timestamp in 'purchase_date': '2026-10-22 12:26:46'") == true)
    }
}
