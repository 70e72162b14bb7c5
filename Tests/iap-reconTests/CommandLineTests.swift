import Foundation
import IAPReconTestSupport
import Testing

/// The built binary, end to end: output and exit codes (CONTRACT §2).
@Suite struct CommandLineTests {
    let dir = TemporaryDirectory("cli")

    static let header =
        "record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,environment,price,currency,storefront,verification_status,delivered_at,finished_at,receipt_id"

    func ledger(_ rows: [String]) throws -> String {
        try dir.write("tx.csv", ([Self.header] + rows).joined(separator: "\n") + "\n")
    }

    @Test(arguments: ["import", "report"])
    func everyCommandExplainsItself(command: String) throws {
        let result = try runIAPRecon([command, "--help"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("--db"))
    }

    @Test func importPrintsCountsPerFileAndKeepsGoing() throws {
        let path = try ledger([
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,",
            "r2,u2,p,t2,,later,1,Production,0.99,USD,USA,verified,,,",
        ])
        let result = try runIAPRecon(["import", "--db", dir.file("s.sqlite"), "--transactions", path])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("transactions \(path): read 2, accepted 1, rejected 1"))
    }

    @Test func strictFailsOnAnyRejection() throws {
        let path = try ledger(["r2,u2,p,t2,,later,1,Production,0.99,USD,USA,verified,,,"])
        let result = try runIAPRecon(["import", "--db", dir.file("s.sqlite"), "--transactions", path, "--strict"])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("--strict"))
    }

    @Test func missingInputIsOneLineNamingTheFile() throws {
        let missing = dir.file("nope.csv")
        let result = try runIAPRecon(["import", "--db", dir.file("s.sqlite"), "--transactions", missing])
        #expect(result.exitCode == 1)
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("error") }
        #expect(lines == ["iap-recon: error: cannot open '\(missing)': No such file or directory"])
    }

    @Test(arguments: [
        ["report"], ["import", "--db", "x.sqlite"], ["report", "--db", "x.sqlite", "--fail-on", "severe"],
        ["report", "--db", "x.sqlite", "--as-of", "tomorrow"],
        ["report", "--db", "x.sqlite", "--timezone", "Mars/Olympus"],
        ["report", "--db", "x.sqlite", "--delivery-grace", "soon"], ["frobnicate"],
        ["run", "--db", "x.sqlite", "--fail-on", "severe"], ["run", "--db", "x.sqlite", "--concurrency", "0"],
        ["lookup", "--db", "x.sqlite"], ["lookup", "--db", "x.sqlite", "--user", "u", "--transaction", "t"],
        ["verify", "--db", "x.sqlite", "--verify-receipt-url", "ftp://example"],
    ])
    func usageErrorsExit64(arguments: [String]) throws {
        let result = try runIAPRecon(arguments, directory: dir.path)
        #expect(result.exitCode == 64, "\(arguments): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("x.sqlite")))
    }

    @Test func reportWritesEveryFileAndExitsZero() throws {
        let path = try ledger([
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,2026-11-20T00:00:01Z,2026-11-20T00:00:02Z,"
        ])
        _ = try runIAPRecon(["import", "--db", dir.file("s.sqlite"), "--transactions", path])
        let result = try runIAPRecon([
            "report", "--db", dir.file("s.sqlite"), "--out", dir.file("out"), "--as-of", "2026-11-21T00:00:00Z",
        ])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("net revenue: 0.99 USD"))
        for name in ["discrepancies.csv", "revenue_daily.csv", "rejected.csv", "reconciliation.xlsx", "run.json"] {
            #expect(FileManager.default.fileExists(atPath: dir.file("out/" + name)), "\(name)")
        }
    }

    /// A mistyped `--db` used to create an empty store and answer "no purchases in the store",
    /// exit 0: a support agent would tell a paying customer they never paid.
    @Test(arguments: [["lookup", "--user", "u1"], ["report", "--out", "out"], ["verify"]])
    func noStoreAtPathExitsOne(arguments: [String]) throws {
        let typo = dir.file("stor.sqlite")
        let result = try runIAPRecon([arguments[0], "--db", typo] + arguments.dropFirst(), directory: dir.path)
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("iap-recon: error: no store at \(typo)"))
        #expect(!FileManager.default.fileExists(atPath: typo))
    }

    @Test func unreadableStoreExitsOne() throws {
        try dir.write("bad.sqlite", String(repeating: "garbage ", count: 512))
        let result = try runIAPRecon(["report", "--db", dir.file("bad.sqlite"), "--out", dir.file("out")])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("bad.sqlite"))
    }

    @Test func theConfigFilesOutKeyIsWhereReportsGoAndTheFlagWins() throws {
        let path = try ledger(["r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,"])
        _ = try runIAPRecon(["import", "--db", dir.file("s.sqlite"), "--transactions", path])
        let config = try dir.write("config.json", #"{"version": 1, "out": "\#(dir.file("from-file"))"}"#)
        let fromFile = try runIAPRecon(["report", "--db", dir.file("s.sqlite"), "--config", config])
        #expect(fromFile.exitCode == 0, "\(fromFile.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.file("from-file/run.json")))
        let fromFlag = try runIAPRecon([
            "report", "--db", dir.file("s.sqlite"), "--config", config, "--out", dir.file("flag"),
        ])
        #expect(fromFlag.exitCode == 0, "\(fromFlag.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.file("flag/run.json")))
    }

    @Test(arguments: [
        (#"{"version": 2}"#, "invalid version in CONFIG '2': expected 1, the format this program reads"),
        (#"{"concurrency": "lots"}"#, "invalid concurrency in CONFIG 'lots': expected a whole number from 1 to 256"),
        (#"{"out-dir": "x"}"#, "unknown key 'out-dir' in config file 'CONFIG'"),
    ])
    func aBadConfigFileIsOneErrorLineAndExitOne(json: String, message: String) throws {
        let config = try dir.write("config.json", json)
        let result = try runIAPRecon(["report", "--db", dir.file("s.sqlite"), "--config", config])
        #expect(result.exitCode == 1)
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("error") }.map(String.init)
        #expect(lines == ["iap-recon: error: " + message.replacingOccurrences(of: "CONFIG", with: config)])
        #expect(!FileManager.default.fileExists(atPath: dir.file("s.sqlite")))
    }
}
