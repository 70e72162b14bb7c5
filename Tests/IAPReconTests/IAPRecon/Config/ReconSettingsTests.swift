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

/// `validated()`: the raw configuration becomes typed settings once, or fails naming the key.
@Suite struct ReconSettingsTests {
    @Test func settingsAreTyped() throws {
        var config = ReconConfig(databasePath: "s.sqlite")
        config.timeZone = "America/Los_Angeles"
        config.salesReportTimeZone = "Australia/Sydney"
        config.fromDay = "2026-11-01"
        config.toDay = "2026-11-30"
        config.deliveryGraceMillis = 7_200_000
        config.retryBudgetMillis = 30_000
        config.serverAPIURL = "http://127.0.0.1:8080/production"
        config.bundleIDs = ["com.example.app"]
        config.apiKeyFile = "k.p8"
        config.apiKeyID = "KID"
        config.issuerID = "ISS"
        let settings = try config.validated()
        #expect(settings.timeZone.identifier == "America/Los_Angeles")
        #expect(settings.salesReportTimeZone.identifier == "Australia/Sydney")
        #expect(
            try ReconConfig(databasePath: "s.sqlite").validated().salesReportTimeZone.identifier
                == "America/Los_Angeles")
        #expect(settings.revenueDays.from == 20_758)
        #expect(settings.revenueDays.to == 20_787)
        #expect(settings.deliveryGrace == .seconds(7_200))
        #expect(settings.retry.budget == .seconds(30))
        #expect(settings.endpoints.serverAPIProduction == URL(string: "http://127.0.0.1:8080/production"))
        #expect(settings.endpoints.verifyReceiptProduction == AppStoreEndpoints.appleVerifyReceiptProduction)
        #expect(settings.endpoints.requestTimeout == .seconds(15))
        #expect(settings.serverAPIKey?.bundleID == "com.example.app")
        #expect(settings.outputDirectory == "reports")
        #expect(settings.ledgerStart == nil)
    }

    /// `--ledger-start`: a day is its midnight UTC, a time is taken as given; the detection
    /// context carries it to MISSING_RECORD.
    @Test(arguments: [
        ("2026-01-01", Int64(1_767_225_600_000)),
        ("2026-01-01T12:00:00+02:00", Int64(1_767_261_600_000)),
        ("1767225600000", Int64(1_767_225_600_000)),
    ])
    func ledgerStartIsAnInstant(text: String, millis: Int64) throws {
        var config = ReconConfig(databasePath: "s.sqlite")
        config.ledgerStart = text
        let settings = try config.validated()
        #expect(settings.ledgerStart == millis)
        #expect(settings.detectionContext(asOf: millis, catalog: [:]).ledgerStart == millis)
    }

    @Test func serverAPICredentialsNeedEveryPart() throws {
        var config = ReconConfig(databasePath: "s.sqlite")
        config.apiKeyFile = "k.p8"
        config.apiKeyID = "KID"
        config.issuerID = "ISS"
        #expect(try config.validated().serverAPIKey == nil)  // no bundle id to issue tokens for
    }

    @Test(arguments: [
        (
            "timezone", "Mars/Olympus",
            "invalid timezone 'Mars/Olympus': expected an IANA time zone such as Europe/Berlin"
        ),
        (
            "sales-report-timezone", "Mars/Olympus",
            "invalid sales-report-timezone 'Mars/Olympus': expected an IANA time zone such as America/Los_Angeles"
        ),
        ("from", "2026-13-01", "invalid from '2026-13-01': expected a date like 2026-11-20"),
        ("to", "2026-10-01", "invalid to '2026-10-01': expected a day on or after --from"),
        ("server-api-url", "ftp://x", "invalid server-api-url 'ftp://x': expected an http(s) URL"),
        ("trusted-root", "/nonexistent/root.pem", "invalid trusted-root '/nonexistent/root.pem'"),
        ("concurrency", "0", "invalid concurrency '0': expected a whole number from 1 to 256"),
        ("history-days", "0", "invalid history-days '0': expected a whole number from 1 to 180"),
        (
            "ledger-start", "2026-13-01",
            "invalid ledger-start '2026-13-01': expected a date like 2026-01-01 or an ISO 8601 time"
        ),
    ])
    func aBadSettingNamesItsKey(key: String, value: String, message: String) throws {
        var config = ReconConfig(databasePath: "s.sqlite")
        config.fromDay = "2026-11-01"
        switch key {
        case "timezone": config.timeZone = value
        case "sales-report-timezone": config.salesReportTimeZone = value
        case "from": config.fromDay = value
        case "to": config.toDay = value
        case "server-api-url": config.serverAPIURL = value
        case "trusted-root": config.trustedRoots = [value]
        case "history-days": config.historyDays = Int(value) ?? 0
        case "ledger-start": config.ledgerStart = value
        default: config.concurrency = Int(value) ?? 0
        }
        let error = try #require(throws: ConfigError.self) { try config.validated() }
        #expect(error.errorDescription?.hasPrefix(message) == true, "\(error)")
    }
}
