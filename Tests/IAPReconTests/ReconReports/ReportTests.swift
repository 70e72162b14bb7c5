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

/// Loads a fixture file's path from the test bundle.
func fixturePath(_ relative: String) throws -> String {
    let base = try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures")
    return base.appendingPathComponent(relative).path
}

@Suite struct ReportTests {
    let dir = TemporaryDirectory("report")
    let logger = Logger.quiet

    /// Copies the small ledger into the temp dir (so paths in rejected.csv are stable) and
    /// imports it.
    func importSmallLedger() async throws -> ReconConfig {
        for name in ["small-transactions.csv", "small-products.csv"] {
            try FileManager.default.copyItem(atPath: try fixturePath("ledger/" + name), toPath: dir.file(name))
        }
        let config = ReconConfig.forTesting(databasePath: dir.file("store.sqlite"), outputDirectory: dir.file("out"))
        let outcome = try await config.dependencies(at: 1_795_176_000_000).importFiles(
            ImportRequest(
                transactions: [dir.file("small-transactions.csv")], products: [dir.file("small-products.csv")]))
        #expect(
            outcome.lines.map { $0.replacingOccurrences(of: dir.path + "/", with: "") } == [
                "products small-products.csv: read 6, accepted 6, rejected 0",
                "transactions small-transactions.csv: read 12, accepted 9, rejected 3",
                "total: read 18, accepted 15, rejected 3",
            ])
        return config
    }

    @Test func goldenCSVReports() async throws {
        let config = try await importSmallLedger()
        let outcome = try await config.dependencies(at: 1_795_176_000_000).report()
        #expect(outcome.exitCode == 0)
        for name in ["revenue_daily.csv", "rejected.csv", "discrepancies.csv"] {
            let text = try dir.read("out/" + name).replacingOccurrences(of: dir.path + "/", with: "")
            if let mismatch = snapshotMismatch(text, named: "small-ledger." + name) {
                Issue.record(Comment(rawValue: mismatch))
            }
        }
    }

    @Test func sameStoreAndAsOfGiveByteIdenticalCSV() async throws {
        var config = try await importSmallLedger()
        _ = try await config.dependencies(at: 1_795_176_000_000).report()
        config.outputDirectory = dir.file("again")
        _ = try await config.dependencies(at: 1_800_000_000_000).report()
        for name in ["revenue_daily.csv", "rejected.csv", "discrepancies.csv"] {
            #expect(try dir.read("out/" + name) == dir.read("again/" + name), "\(name) differs between runs")
        }
    }

    @Test func timeZoneDecidesTheDay() async throws {
        var config = try await importSmallLedger()
        config.timeZone = "Asia/Tokyo"
        _ = try await config.dependencies(at: 1_795_176_000_000).report()
        let revenue = try dir.read("out/revenue_daily.csv")
        // r03 was bought 2026-11-19 01:00 in Tokyo (2026-11-18 16:00 UTC).
        #expect(revenue.contains("2026-11-19,premium,JPY,1,1200,0,1200,1020,1020,JPY,estimate\r\n"))
        config.timeZone = "UTC"
        _ = try await config.dependencies(at: 1_795_176_000_000).report()
        #expect(
            try dir.read("out/revenue_daily.csv").contains(
                "2026-11-18,premium,JPY,1,1200,0,1200,1020,1020,JPY,estimate\r\n"))
    }

    @Test func dateRangeLimitsRevenue() async throws {
        var config = try await importSmallLedger()
        config.fromDay = "2026-11-19"
        config.toDay = "2026-11-19"
        _ = try await config.dependencies(at: 1_795_176_000_000).report()
        let days = try dir.read("out/revenue_daily.csv").split(separator: "\r\n").dropFirst().map { $0.prefix(10) }
        #expect(!days.isEmpty)
        #expect(days.allSatisfy { $0 == "2026-11-19" })
    }

    @Test func reportFilesArePrivateAndComplete() async throws {
        let config = try await importSmallLedger()
        _ = try await config.dependencies(at: 1_795_176_000_000).report()
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.file("out")).sorted()
        #expect(names == ReportStage.fileNames.sorted())
        for name in names {
            let attributes = try FileManager.default.attributesOfItem(atPath: dir.file("out/" + name))
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640, "\(name)")
        }
        let run = try JSONSerialization.jsonObject(with: Data(dir.read("out/run.json").utf8)) as? [String: Any]
        #expect(run?["as_of"] as? String == "2026-11-20T12:00:00Z")
        #expect(run?["exit_code"] as? Int == 0)
    }

    @Test func unwritableOutputIsAClearError() async throws {
        var config = try await importSmallLedger()
        try dir.write("blocker", "a file, not a folder")
        config.outputDirectory = dir.file("blocker")
        await #expect(
            throws: ReportError.cannotCreateDirectory(path: dir.file("blocker"), reason: "a file has that name")
        ) {
            try await config.dependencies(at: 1_795_176_000_000).report()
        }
    }
}
