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

/// One run, one record: `run.json` and the store's run row are the same bytes, written once the
/// reports are; every command that writes the store holds its lock; exit statuses are typed.
@Suite struct RunRecorderTests {
    let dir = TemporaryDirectory("run-record")
    let logger = Logger.quiet
    static let asOf: Int64 = 1_795_176_000_000

    /// The small ledger imported into a fresh store.
    func importSmallLedger(_ configure: (inout ReconConfig) -> Void = { _ in }) async throws -> ReconConfig {
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        configure(&config)
        let recon = try config.dependencies(at: Self.asOf)
        _ = try await recon.importFiles(
            ImportRequest(
                transactions: [try fixturePath("ledger/small-transactions.csv")],
                products: [try fixturePath("ledger/small-products.csv")]))
        return config
    }

    func stageNames(_ record: [String: Any]) -> [String]? {
        (record["stages"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
    }

    func runRecord(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func runJSONIsTheStoredRunRecord() async throws {
        let config = try await importSmallLedger()
        let recon = try config.dependencies(at: Self.asOf)
        _ = try await recon.report()
        let file = try dir.read("out/run.json")
        let record = try runRecord(file)
        let runID = try #require(record["run_id"] as? Int)
        #expect(try recon.store.runRecordJSON(Int64(runID)) == file)
        #expect(stageNames(record) == ["decode", "detect", "report"])
        #expect(record["finished_at"] as? String == "2026-11-20T12:00:00Z")
        #expect(record["exit_code"] as? Int == 0)
    }

    @Test func theNightlyRunRecordsEveryStageInBoth() async throws {
        let config = try await importSmallLedger()
        let transport = CannedTransport(sequence: [])  // nothing pending has a receipt: Apple is never asked
        let recon = try ReconDependencies(
            config: config, clock: ManualClock(millis: Self.asOf), logger: logger, transport: transport)
        let outcome = try await recon.nightly(
            ImportRequest(transactions: [try fixturePath("ledger/small-transactions.csv")]))
        let file = try dir.read("out/run.json")
        let record = try runRecord(file)
        #expect(try recon.store.runRecordJSON(Int64(try #require(record["run_id"] as? Int))) == file)
        #expect(stageNames(record) == ["import", "verify", "detect", "report"])
        #expect(record["exit_code"] as? Int == Int(outcome.exitCode))
        #expect(transport.requests.isEmpty)
    }

    @Test func verifyStoresTheSameRecordShape() async throws {
        let config = try await importSmallLedger()
        let recon = try ReconDependencies(
            config: config, clock: ManualClock(millis: Self.asOf), logger: logger,
            transport: CannedTransport(sequence: []))
        let outcome = try await recon.verify()
        #expect(outcome.status == .done)
        let record = try runRecord(try #require(try recon.store.runRecordJSON(1)))
        #expect(record["command"] as? String == "verify")
        #expect(record["run_id"] as? Int == 1)
        #expect(stageNames(record) == ["decode", "verify"])
        #expect(record["finished_at"] as? String == "2026-11-20T12:00:00Z")
        #expect(record["output_directory"] == nil)
        #expect(!FileManager.default.fileExists(atPath: dir.file("out/run.json")))
    }

    enum Command: String, CaseIterable, Sendable {
        case `import`, verify, report, run
    }

    @Test(arguments: Command.allCases)
    func everyCommandThatWritesTheStoreTakesTheLock(command: Command) async throws {
        let config = try await importSmallLedger()
        let recon = try ReconDependencies(
            config: config, clock: ManualClock(millis: Self.asOf), logger: logger,
            transport: CannedTransport(sequence: []))
        let ledger = try fixturePath("ledger/small-transactions.csv")
        let holder = "iap-recon run (pid 4242) since 2026-11-20T02:00:00Z"
        let lock = try RunLock(storePath: config.databasePath, holder: holder)
        let error = await #expect(throws: StoreError.self) {
            switch command {
            case .import: _ = try await recon.importFiles(ImportRequest(transactions: [ledger]))
            case .verify: _ = try await recon.verify()
            case .report: _ = try await recon.report()
            case .run: _ = try await recon.nightly(ImportRequest())
            }
        }
        #expect(error == .locked(holder: holder))
        withExtendedLifetime(lock) {}
    }

    @Test(
        arguments: [
            // The small ledger's one finding is UNKNOWN_PRODUCT, medium.
            (nil, IAPRecon.ExitStatus.done), (Severity.high, .done), (.medium, .findingsAtOrAboveFailOn),
            (.low, .findingsAtOrAboveFailOn),
        ] as [(Severity?, IAPRecon.ExitStatus)])
    func failOnDecidesTheExitStatus(failOn: Severity?, expected: IAPRecon.ExitStatus) async throws {
        let config = try await importSmallLedger { $0.failOn = failOn }
        let recon = try config.dependencies(at: Self.asOf)
        let outcome = try await recon.report()
        #expect(outcome.status == expected)
        #expect(try runRecord(try dir.read("out/run.json"))["exit_code"] as? Int == Int(expected.rawValue))
    }

    @Test func strictFailsAnImportThatRejectedRows() async throws {
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        config.strict = true
        let recon = try config.dependencies(at: Self.asOf)
        let ledger = try fixturePath("ledger/small-transactions.csv")
        let outcome = try await recon.importFiles(ImportRequest(transactions: [ledger]))
        #expect(outcome.status == .failed)
        #expect(outcome.exitCode == 1)
    }

    @Test func exitCodesAreTheContracts() {
        #expect(IAPRecon.ExitStatus.allCases.map(\.rawValue) == [0, 1, 3, 64])
    }
}
