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

/// The `--config FILE` format: flag names as keys, a checked version, errors that name the key.
@Suite struct ConfigFileTests {
    let dir = TemporaryDirectory("config-file")

    func load(_ json: String) throws -> ReconConfig {
        let path = try dir.write("config.json", json)
        var config = ReconConfig(databasePath: "s.sqlite")
        try config.apply(configFile: path)
        return config
    }

    @Test func everyKeyIsAFlagNameAndSetsItsSetting() throws {
        let config = try load(
            """
            {"version": 1, "out": "nightly-reports", "timezone": "Europe/Berlin", "fail-on": "HIGH",
             "delivery-grace": "2h", "finish-grace": "1d", "pending-limit": "90m", "bundle-id": "com.example.app",
             "trusted-root": ["a.pem", "b.der"], "verify-receipt-url": "http://127.0.0.1:1/v",
             "sandbox-verify-receipt-url": "http://127.0.0.1:1/s", "server-api-url": "http://127.0.0.1:1/p",
             "sandbox-server-api-url": "http://127.0.0.1:1/q", "concurrency": 32, "request-timeout": "20s",
             "retry-attempts": "3", "retry-budget": "30s", "retry-base-delay": "50ms",
             "exclude-old-transactions": true, "shared-secret": "x", "api-key-file": "k.p8", "api-key-id": "KID",
             "issuer-id": "ISS", "history-days": 90, "ledger-start": "2026-01-01",
             "sales-report-timezone": "Australia/Sydney"}
            """)
        #expect(config.outputDirectory == "nightly-reports")
        #expect(config.timeZone == "Europe/Berlin")
        #expect(config.salesReportTimeZone == "Australia/Sydney")
        #expect(config.failOn == .high)
        #expect(config.deliveryGraceMillis == 7_200_000)
        #expect(config.finishGraceMillis == 86_400_000)
        #expect(config.pendingLimitMillis == 5_400_000)
        #expect(config.bundleIDs == ["com.example.app"])
        #expect(config.trustedRoots == ["a.pem", "b.der"])
        #expect(config.verifyReceiptURL == "http://127.0.0.1:1/v")
        #expect(config.sandboxServerAPIURL == "http://127.0.0.1:1/q")
        #expect(config.concurrency == 32)
        #expect(config.requestTimeoutMillis == 20_000)
        #expect(config.retryAttempts == 3)
        #expect(config.retryBudgetMillis == 30_000)
        #expect(config.retryBaseDelayMillis == 50)
        #expect(config.excludeOldTransactions)
        #expect(config.historyDays == 90)
        #expect(config.apiKeyID == "KID")
        #expect(config.ledgerStart == "2026-01-01")
        #expect(Set(ConfigFile.keys.keys) == Set(ReconConfig.fileKeys.keys))
    }

    @Test func aFileWithoutVersionIsTheCurrentFormat() throws {
        #expect(try load(#"{"timezone": "Asia/Tokyo"}"#).timeZone == "Asia/Tokyo")
    }

    @Test(arguments: [
        (#"{"version": 2}"#, "invalid version in PATH '2': expected 1, the format this program reads"),
        (#"{"concurrency": "many"}"#, "invalid concurrency in PATH 'many': expected a whole number from 1 to 256"),
        (#"{"concurrency": 0}"#, "invalid concurrency in PATH '0': expected a whole number from 1 to 256"),
        (#"{"retry-attempts": 21}"#, "invalid retry-attempts in PATH '21': expected a whole number from 1 to 20"),
        // Apple keeps 180 days of notification history (Get Notification History).
        (#"{"history-days": 181}"#, "invalid history-days in PATH '181': expected a whole number from 1 to 180"),
        (#"{"delivery-grace": "soon"}"#, "invalid delivery-grace in PATH 'soon': expected a duration like 90m, 1h, 2d"),
        (#"{"fail-on": "severe"}"#, "invalid fail-on in PATH 'severe': expected critical, high, medium or low"),
        (
            #"{"ledger-start": "last year"}"#,
            "invalid ledger-start in PATH 'last year': expected a date like 2026-01-01 or an ISO 8601 time"
        ),
        (#"{"timezone": true}"#, "invalid timezone in PATH 'a boolean': expected a string"),
        (
            #"{"bundle-id": [1, 2]}"#,
            "invalid bundle-id in PATH 'a list of numbers': expected a string or a list of strings"
        ),
        (
            #"{"exclude-old-transactions": "yes"}"#,
            "invalid exclude-old-transactions in PATH 'a value of another type': expected true or false"
        ),
        (#"{"shared-secret": null}"#, "invalid shared-secret in PATH 'null': expected a string"),
        (#"{"fail_on": "high"}"#, "unknown key 'fail_on' in config file 'PATH'"),
        (#"["out"]"#, "cannot read config file 'PATH': not a JSON object"),
        (#"{"out": "#, "cannot read config file 'PATH': not a JSON object"),
    ])
    func aBadFileIsOneLineNamingTheFileAndKey(json: String, message: String) throws {
        let path = try dir.write("config.json", json)
        var config = ReconConfig(databasePath: "s.sqlite")
        let error = try #require(throws: ConfigError.self) { try config.apply(configFile: path) }
        #expect(error.errorDescription == message.replacingOccurrences(of: "PATH", with: path))
    }

    @Test func aMissingFileIsNamed() throws {
        var config = ReconConfig(databasePath: "s.sqlite")
        let error = try #require(throws: ConfigError.self) { try config.apply(configFile: dir.file("none.json")) }
        #expect(error.errorDescription?.hasPrefix("cannot read config file '\(dir.file("none.json"))'") == true)
    }

    @Test func aSecretInAWrongShapeIsNeverEchoed() throws {
        let path = try dir.write("config.json", #"{"shared-secret": {"value": 12345}}"#)
        var config = ReconConfig(databasePath: "s.sqlite")
        let error = try #require(throws: ConfigError.self) { try config.apply(configFile: path) }
        #expect(error.errorDescription?.contains("12345") == false)
    }
}
