import Foundation
import IAPReconTestSupport
import Testing

@testable import IAPRecon
@testable import iap_recon

/// The config file takes every long option of every command that reads one (`db` and the log options too), and each
/// command's `--help` names the environment variables it reads.
@Suite struct OptionKeysTests {
    let dir = TemporaryDirectory("option-keys")

    /// The commands that take `--config`, with the environment variables each reads.
    static let commands: [(String, [String])] = [
        ("import", ["PGPASSWORD", "PGPASSFILE"]),
        ("verify", apple + ["PGPASSWORD", "PGPASSFILE"]),
        ("run", apple + ["PGPASSWORD", "PGPASSFILE"]),
        ("report", ["PGPASSWORD", "PGPASSFILE"]),
        ("lookup", serverAPI + ["PGPASSWORD", "PGPASSFILE"]),
        ("answer-consumption", serverAPI + ["PGPASSWORD", "PGPASSFILE"]),
        ("serve", ["IAP_RECON_SERVE_TOKEN"] + serverAPI + ["PGPASSWORD", "PGPASSFILE"]),
    ]
    static let serverAPI = ["IAP_RECON_API_KEY_FILE", "IAP_RECON_API_KEY_ID", "IAP_RECON_ISSUER_ID"]
    static let apple = ["IAP_RECON_SHARED_SECRET"] + serverAPI

    /// Options that are not settings: the file itself, and the one question a `lookup` asks.
    static let notKeys: Set = [
        "config", "help", "version", "user", "transaction", "original-transaction", "order-id", "app-transaction",
    ]

    /// Every subcommand's long option names, as the machine-readable help of the program lists them.
    func longOptions() throws -> [String: [String]] {
        let result = try runIAPRecon(["--experimental-dump-help"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let subcommands = (json["command"] as? [String: Any])?["subcommands"] as? [[String: Any]] ?? []
        var options: [String: [String]] = [:]
        for command in subcommands {
            guard let name = command["commandName"] as? String else { continue }
            let arguments = command["arguments"] as? [[String: Any]] ?? []
            options[name] = arguments.flatMap { argument in
                (argument["names"] as? [[String: Any]] ?? []).compactMap { name in
                    name["kind"] as? String == "long" ? name["name"] as? String : nil
                }
            }
        }
        return options
    }

    /// Every command that reads a config file (found, not listed: a new command is walked too) takes each of its long
    /// options from it.
    @Test func everyLongOptionIsAConfigKey() throws {
        let keys = Set(ReconConfig.keys.map(\.name))
        let commands = try longOptions().filter { $0.value.contains("config") }
        #expect(Set(Self.commands.map(\.0)).isSubset(of: commands.keys), "\(commands.keys.sorted())")
        for (command, options) in commands {
            #expect(options.contains("db"), "\(command)")
            let missing = options.filter { !keys.contains($0) && !Self.notKeys.contains($0) }
            #expect(missing.isEmpty, "\(command): options with no config key: \(missing)")
        }
    }

    /// Every key with a flag is an option of some command; the others (retries, secrets) are file-only by design.
    @Test func everyKeyWithAFlagIsAnOption() throws {
        let options = Set(try longOptions().values.joined())
        for key in ReconConfig.keys where key.flag != nil {
            #expect(options.contains(key.name), "--\(key.name) is in the key table but no command takes it")
        }
    }

    @Test(arguments: commands)
    func theHelpNamesTheEnvironmentVariablesItReads(command: String, variables: [String]) throws {
        let help = try runIAPRecon([command, "--help"])
        #expect(help.exitCode == 0)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("Environment: "), "\(command)")
        for variable in variables { #expect(text.contains(variable), "\(command) --help: no \(variable)") }
    }

    /// A small store with one purchase, and a config file naming it (with `out`, the log options and the inputs).
    func storeAndConfig(_ extra: String = "") throws -> (store: String, config: String) {
        let ledger = try dir.write(
            "tx.csv",
            CommandLineTests.header + "\nr1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,\n")
        let store = dir.file("s.sqlite")
        let config = try dir.write(
            "recon.json",
            """
            {"version": 1, "db": "\(store)", "transactions": ["\(ledger)"], "out": "\(dir.file("out"))",
             "as-of": "2026-11-21T00:00:00Z", "log-level": "debug", "log-format": "json"\(extra)}
            """)
        return (store, config)
    }

    @Test func theConfigFileNamesTheStoreTheInputsAndTheLogs() throws {
        let (store, config) = try storeAndConfig()
        let run = try runIAPRecon(["run", "--config", config])
        #expect(run.exitCode == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: store))
        #expect(FileManager.default.fileExists(atPath: dir.file("out/run.json")))
        // --log-format json from the file: every log line is a JSON object; debug lines are there.
        let lines = run.stderr.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("{") }, "\(run.stderr)")
        #expect(run.stderr.contains("\"level\":\"debug\""), "\(run.stderr)")
        let lookup = try runIAPRecon(["lookup", "--config", config, "--user", "u1"])
        #expect(lookup.exitCode == 0, "\(lookup.stderr)")
        #expect(lookup.stdout.hasPrefix("user u1: charged for 1 purchase"))
        // A flag wins over the file.
        let elsewhere = try runIAPRecon(["lookup", "--config", config, "--db", dir.file("none.sqlite"), "--user", "u1"])
        #expect(elsewhere.exitCode == 1)
        #expect(elsewhere.stderr.contains("none.sqlite"))
    }

    @Test func withoutAStoreAnywhereItSaysWhereToNameIt() throws {
        let config = try dir.write("empty.json", #"{"version": 1}"#)
        let result = try runIAPRecon(["report", "--config", config])
        #expect(result.exitCode == 1)
        #expect(result.stderr == "iap-recon: error: no store: give --db, or \"db\" in config file '\(config)'\n")
        let usage = try runIAPRecon(["verify"])
        #expect(usage.exitCode == 64)
        #expect(usage.stderr.contains("missing --db STORE (or --config FILE holding \"db\")"))
    }

    /// Server API credentials without `--bundle-id`: one line says what is off and why, naming `--bundle-id`.
    @Test(arguments: ["run", "verify"])
    func credentialsWithoutABundleIDSayWhatIsOff(command: String) throws {
        let (_, config) = try storeAndConfig()
        _ = try runIAPRecon(["import", "--config", config])
        let key = try dir.write("AuthKey_TEST.p8", "not used")
        let environment = [
            "IAP_RECON_API_KEY_FILE": key, "IAP_RECON_API_KEY_ID": "TEST123", "IAP_RECON_ISSUER_ID": "issuer",
        ]
        let out = command == "run" ? ["--out", dir.file("o")] : []
        let result = try runIAPRecon([command, "--db", dir.file("s.sqlite")] + out, environment: environment)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("--bundle-id") }
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(
            lines.first?.hasSuffix(
                "App Store Server API off: credentials are set but --bundle-id is not (every Server API token names "
                    + "the app's bundle id); the notification-history sweep, subscription statuses and Get "
                    + "Transaction Info are skipped until it is given") == true, "\(result.stderr)")
    }

    @Test func theNoticeIsSilentWithoutCredentialsOrWithAllOfThem() {
        var config = ReconConfig(databasePath: "s.sqlite")
        #expect(config.serverAPINotice == nil)
        config.apiKeyFile = "k.p8"
        config.apiKeyID = "K"
        config.bundleIDs = ["com.example.app"]
        #expect(config.serverAPINotice?.contains("IAP_RECON_ISSUER_ID is not") == true)
        config.issuerID = "i"
        #expect(config.serverAPINotice == nil)
    }
}
