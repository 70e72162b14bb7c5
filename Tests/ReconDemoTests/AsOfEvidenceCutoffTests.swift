import AppStoreSimulator
import Foundation
import IAPReconTestSupport
import ReconDemo
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

/// `--as-of` as a cut-off for evidence (CONTRACT §5: what was "learned after it does not enter that report"): a
/// `verify` after the as-of (verifications, Get Transaction Info answers, the notification history sweep) changes
/// the live answer, but not a report as of the earlier moment.
@Suite(.serialized) struct AsOfEvidenceCutoffTests {
    let dir = TemporaryDirectory("as-of-evidence")

    /// The CSV reports of one `report` at `asOf` (nil: now) into `folder`.
    func report(_ config: ReconConfig, asOf: Int64?, into folder: String) async throws -> [String: String] {
        var config = config
        config.asOf = asOf
        config.outputDirectory = dir.file(folder)
        _ = try await config.dependencies(opening: .existing).report()
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.file(folder)) where name.hasSuffix(".csv") {
            files[name] = try dir.read("\(folder)/\(name)")
        }
        return files
    }

    @Test func evidenceLearnedAfterTheAsOfLeavesThatReportAsItWas() async throws {
        let dataset = try DemoDataset.generate(seed: 7, purchases: 60)
        // The store learns everything below on the wall clock, after the dataset's as-of.
        try #require(Int64(Date().timeIntervalSince1970 * 1000) > dataset.asOf + 60_000)
        let (simulator, started) = try await DemoRun.startSimulator(
            for: dataset, databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"),
            inputDirectory: dir.path)
        var config = started
        config.salesReportTimeZone = DemoDataset.salesReportTimeZone
        _ = try await config.dependencies(at: dataset.asOf).importFiles(
            ImportRequest(
                transactions: [try dir.write("t.csv", dataset.transactions)],
                receipts: [try dir.write("r.jsonl", dataset.receipts)],
                products: [try dir.write("p.csv", dataset.products)]))
        let before = try await report(config, asOf: dataset.asOf, into: "before")

        // Verify now (no --as-of): verdicts, Apple's answers and the notification history, all learned now.
        var now = config
        now.asOf = nil
        do {
            _ = try await now.dependencies(opening: .existing).verify()
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
        let store = try ReconStore(path: config.databasePath)
        #expect(try store.receipts.verificationCount(source: .verifyReceipt) > 0)
        #expect(try store.notifications.notificationCount() > 0)

        let live = try await report(config, asOf: nil, into: "live")
        #expect(live["discrepancies.csv"] != before["discrepancies.csv"], "the verification changed nothing to test")
        let after = try await report(config, asOf: dataset.asOf, into: "after")
        #expect(after.keys.sorted() == before.keys.sorted())
        for (name, text) in before where name != "revenue_changes.csv" {
            let was = Set(text.split(separator: "\r\n"))
            let now = Set((after[name] ?? "").split(separator: "\r\n"))
            #expect(
                was == now,
                """
                \(name) as of \(Timestamp.iso(dataset.asOf)) changed after a later verify: \
                gone \(was.subtracting(now)), new \(now.subtracting(was))
                """)
        }
    }
}
