import AppleData
import Foundation
import ReconFindings
import ReconImport
import ReconLookup
import ReconModel
import ReconReports
import ReconStorage
import ReconVerify

/// A command's configuration, checked once and typed: what every stage reads.
///
/// Built by ``ReconConfig/validated()``; nothing after that parses a setting again. A setting whose checked value is
/// its given one is read through to ``config`` (`settings.historyDays`, `settings.bundleIDs`, `settings.failOn`);
/// only a setting that becomes another type (a time zone, a duration, Apple's endpoints) has a property here, derived
/// from ``config``. No default is written here: each is ``ReconConfig``'s.
@dynamicMemberLookup
public struct ReconSettings: Sendable {
    /// The configuration these settings were checked from (secrets included: never print it but through its
    /// redacting description).
    public let config: ReconConfig
    /// Decides the calendar day of purchases and refunds.
    public var timeZone: TimeZone
    /// Decides the calendar day of Apple's Summary Sales Reports (and of the ledger rows compared with them).
    public var salesReportTimeZone: TimeZone
    /// Inclusive day bounds of the revenue report.
    public var revenueDays: DayRange
    /// When the ledger begins (epoch ms): Apple's entries for purchases before it are not `MISSING_RECORD`
    /// (`--ledger-start`).
    ///
    /// Nil: the ledger holds everything.
    public var ledgerStart: Int64?
    /// Apple's roots plus every `--trusted-root` file, loaded.
    public var trust: TrustStore
    /// Apple's URLs, the per-request timeout and the concurrency.
    public var endpoints: AppStoreEndpoints

    /// A setting as given and checked: `settings.strict`, `settings.historyDays`, `settings.outputDirectory`.
    public subscript<Value>(dynamicMember path: KeyPath<ReconConfig, Value>) -> Value {
        config[keyPath: path]
    }

    /// How long after purchase delivery may take (`UNDELIVERED`).
    public var deliveryGrace: Duration { .milliseconds(config.deliveryGraceMillis) }
    /// How long after delivery finishing may take (`UNFINISHED`).
    public var finishGrace: Duration { .milliseconds(config.finishGraceMillis) }
    /// How long a purchase may stay pending (`STUCK_PENDING`).
    public var pendingLimit: Duration { .milliseconds(config.pendingLimitMillis) }
    /// `--entitlement-lookback` and `--entitlement-tolerance` (CONTRACT §3, §4).
    public var entitlementLookback: Duration { .milliseconds(config.entitlementLookbackMillis) }
    public var entitlementTolerance: Duration { .milliseconds(config.entitlementToleranceMillis) }

    /// Attempts, budget and first delay of every Apple request's retries.
    public var retry: RetrySettings {
        RetrySettings(
            attempts: config.retryAttempts, budget: .milliseconds(config.retryBudgetMillis),
            baseDelay: .milliseconds(config.retryBaseDelayMillis))
    }

    /// verifyReceipt password.
    public var sharedSecret: SharedSecret? { config.sharedSecret.map(SharedSecret.init) }

    /// App Store Server API credentials, when complete.
    public var serverAPIKey: ServerAPIKeyFile? {
        guard config.hasServerAPICredentials, let path = config.apiKeyFile, let keyID = config.apiKeyID,
            let issuerID = config.issuerID, let bundleID = config.bundleIDs.first
        else { return nil }
        return ServerAPIKeyFile(path: path, keyID: keyID, issuerID: issuerID, bundleID: bundleID)
    }

    /// Inclusive bounds in days since 1970-01-01; nil = open.
    public struct DayRange: Sendable, Hashable {
        public var from: Int?
        public var to: Int?
    }

    /// How Apple requests are retried (the clock comes from the composition root).
    public struct RetrySettings: Sendable, Hashable {
        public var attempts: Int
        public var budget: Duration
        public var baseDelay: Duration
    }

    /// Where the `.p8` key is and whose it is; read when the Server API client is built.
    public struct ServerAPIKeyFile: Sendable, Hashable {
        public var path: String
        public var keyID: String
        public var issuerID: String
        /// The bundle id tokens are issued for.
        public var bundleID: String
    }
}

extension ReconConfig {
    /// Each value alone, typed: what ``checked()`` returns.
    public struct CheckedValues: Sendable {
        public var timeZone: TimeZone
        public var salesReportTimeZone: TimeZone
        public var revenueDays: ReconSettings.DayRange
        public var ledgerStart: Int64?
    }

    /// Checks each value alone, reading no file: time zones, days, durations, numbers in range, URLs and the
    /// ledger start.
    ///
    /// The flags are checked with it before a command runs (a bad flag is a usage error); ``validated()`` checks
    /// every layer with it.
    ///
    /// - Throws: ``ConfigError`` naming the first key at fault.
    public func checked() throws(ConfigError) -> CheckedValues {
        guard let zone = TimeZone(identifier: timeZone) else {
            throw .invalid(key: "timezone", value: timeZone, expected: "an IANA time zone such as Europe/Berlin")
        }
        guard let salesZone = TimeZone(identifier: salesReportTimeZone) else {
            throw .invalid(
                key: "sales-report-timezone", value: salesReportTimeZone,
                expected: "an IANA time zone such as America/Los_Angeles")
        }
        let from = try fromDay.map { d throws(ConfigError) in try Self.day(d, key: "from") }
        let to = try toDay.map { d throws(ConfigError) in try Self.day(d, key: "to") }
        for key in Self.keys { try key.check(self) }
        let ledgerStartMillis = try ledgerStart.map { text throws(ConfigError) in
            guard let millis = Self.ledgerStartMillis(text) else {
                throw .invalid(key: "ledger-start", value: text, expected: Self.ledgerStartExpected)
            }
            return millis
        }
        return CheckedValues(
            timeZone: zone, salesReportTimeZone: salesZone, revenueDays: .init(from: from, to: to),
            ledgerStart: ledgerStartMillis)
    }

    /// Checks every setting and returns them typed: each value alone (``checked()``), then how they go together,
    /// the trusted roots' files and Apple's endpoints.
    ///
    /// - Throws: ``ConfigError`` naming the first key at fault.
    public func validated() throws(ConfigError) -> ReconSettings {
        let values = try checked()
        if let from = values.revenueDays.from, let to = values.revenueDays.to, to < from, let toDay {
            throw .invalid(key: "to", value: toDay, expected: "a day on or after --from")
        }
        let trust: TrustStore
        do {
            trust = try TrustStore.loading(files: trustedRoots)
        } catch {
            throw .invalid(
                key: "trusted-root", value: error.path,
                expected: "a readable DER or PEM certificate (\(error.description))")
        }
        let endpoints: AppStoreEndpoints
        do {
            endpoints = try AppStoreEndpoints.parse(
                verifyReceiptProduction: verifyReceiptURL, verifyReceiptSandbox: sandboxVerifyReceiptURL,
                serverAPIProduction: serverAPIURL, serverAPISandbox: sandboxServerAPIURL,
                requestTimeout: .milliseconds(requestTimeoutMillis), concurrency: concurrency)
        } catch {
            if case .invalidURL(let setting, let value) = error {
                throw .invalid(key: setting, value: value, expected: "an http(s) URL")
            }
            throw .invalid(key: "endpoint", value: "", expected: error.description)
        }
        return ReconSettings(
            config: self, timeZone: values.timeZone, salesReportTimeZone: values.salesReportTimeZone,
            revenueDays: values.revenueDays, ledgerStart: values.ledgerStart, trust: trust, endpoints: endpoints)
    }

    /// `--ledger-start`: a day (`2026-01-01`, midnight UTC) or an ISO 8601 time / epoch ms.
    public static func ledgerStartMillis(_ text: String) -> Int64? {
        Timestamp.parse(text + "T00:00:00Z") ?? Timestamp.parse(text)
    }

    package static let ledgerStartExpected = "a date like 2026-01-01 or an ISO 8601 time"

    /// Day number (since 1970-01-01) of a `yyyy-MM-dd` bound.
    package static func day(_ text: String, key: String) throws(ConfigError) -> Int {
        guard let millis = Timestamp.parse(text + "T00:00:00Z") else {
            throw .invalid(key: key, value: text, expected: "a date like 2026-11-20")
        }
        return Int(millis / 86_400_000)
    }
}
