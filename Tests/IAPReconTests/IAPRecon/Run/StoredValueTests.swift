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

/// CONTRACT §1.6 and §2: no value that got into the store can stop `report`; no typo in `--db`
/// answers with a confident empty store.
@Suite struct StoredValueTests {
    let dir = TemporaryDirectory("stored-values")
    let logger = Logger.quiet

    static let header =
        "record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,environment,price,currency,storefront,verification_status,delivered_at,finished_at,receipt_id"

    /// A store holding `rows`, imported as today's import does, then edited the way an older
    /// version's import (which accepted any value) left it.
    func store(_ rows: [String], olderImport sql: String? = nil) async throws -> ReconConfig {
        let path = try dir.write("tx.csv", ([Self.header] + rows).joined(separator: "\n") + "\n")
        let config = ReconConfig.forTesting(databasePath: dir.file("store.sqlite"), outputDirectory: dir.file("out"))
        _ = try await config.dependencies(at: 1_795_176_000_000).importFiles(ImportRequest(transactions: [path]))
        if let sql {
            let store = try ReconStore(path: config.databasePath)
            try store.db.execute(sql)
        }
        return config
    }

    func runJSON() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: dir.file("out/run.json")))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A Go/.NET zero time stored by an older import used to fail every later report with
    /// "0001-01-01 is not a date Excel can store".
    @Test func zeroTimeInStoreIsWrittenAsTextAndWarned() async throws {
        let config = try await store(
            [
                "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,",
                "r2,u2,p,t2,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,2026-11-20T00:00:01Z,2026-11-20T00:00:02Z,",
            ],
            olderImport: "UPDATE transactions SET purchase_date = -62135596800000 WHERE record_id = 'r1'")
        let outcome = try await config.dependencies(at: 1_795_176_000_000, opening: .existing).report()
        #expect(outcome.exitCode == 0)
        for name in ReportStage.fileNames {
            #expect(FileManager.default.fileExists(atPath: dir.file("out/" + name)), "\(name)")
        }
        let warnings = try #require(try runJSON()["warnings"] as? [String])
        let excel = " is not a date Excel can store (1900-01-01...9999-12-31); written as text"
        #expect(
            warnings == [
                "reconciliation.xlsx sheet 'Summary' cell A55: 0001-01-01" + excel,  // below one row per finding code
                "reconciliation.xlsx sheet 'Revenue' cell A2: 0001-01-01" + excel,
                "reconciliation.xlsx sheet 'Pending' cell E2: 0001-01-01 00:00:00" + excel,
            ])
        let statement = try ReconStore(path: config.databasePath).db
            .prepare("SELECT summary_json FROM runs ORDER BY run_id DESC LIMIT 1")
        #expect(try statement.step())
        #expect(statement.text(0).contains("0001-01-01 00:00:00 is not a date Excel can store"))
    }

    /// Sums that cannot be held are capped and named, never a trap.
    @Test func revenueThatOverflowsIsCappedAndWarned() async throws {
        let config = try await store(
            [
                "r1,u1,p,t1,,2026-11-20T00:00:00Z,10,Production,900000000000000,USD,USA,verified,2026-11-20T00:00:01Z,2026-11-20T00:00:02Z,",
                "r2,u2,p,t2,,2026-11-20T00:00:00Z,10,Production,900000000000000,USD,USA,verified,2026-11-20T00:00:01Z,2026-11-20T00:00:02Z,",
            ])
        let outcome = try await config.dependencies(at: 1_795_176_000_000, opening: .existing).report()
        #expect(outcome.exitCode == 0)
        let warnings = try #require(try runJSON()["warnings"] as? [String])
        #expect(
            warnings.contains("revenue in USD overflows the money type; its sums are capped and shown as 'overflow'"))
        #expect(warnings.contains { $0.hasPrefix("reconciliation.xlsx sheet 'Revenue'") && $0.contains("overflows") })
    }

    @Test func lineTotalNeverTraps() {
        let row = LedgerTransaction(
            recordID: "r", userID: "u", productID: "p", transactionID: "t", originalTransactionID: nil,
            purchaseDate: 1_795_176_000_000, quantity: 10, environment: .production,
            price: Money(milliunits: .max / 2, currency: "USD"), storefront: nil, verificationStatus: .verified,
            deliveredAt: nil, finishedAt: nil, receiptID: nil)
        #expect(row.lineTotal == nil)
        #expect(Money.sum(.max, 1) == .max)
        #expect(Money.difference(-.max, 5) == -.max)
    }

    enum Command: String, CaseIterable { case report, verify, lookup }

    /// `lookup --db stor.sqlite` (a typo) used to create an empty store and answer "no purchases".
    @Test(arguments: Command.allCases)
    func noStoreNoAnswer(command: Command) async throws {
        let path = dir.file("stor.sqlite")
        let config = ReconConfig.forTesting(databasePath: path, outputDirectory: dir.file("out"))
        await #expect(throws: StoreError.noStore(path: path)) {
            switch command {
            case .report: _ = try await config.dependencies(at: 1_795_176_000_000, opening: .existing).report()
            case .verify: _ = try await config.dependencies(at: 1_795_176_000_000, opening: .existing).verify()
            case .lookup: _ = try await config.dependencies(opening: .existing).lookup(.user("u1"), json: false)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(StoreError.noStore(path: path).errorDescription == "no store at \(path)")
    }
}
