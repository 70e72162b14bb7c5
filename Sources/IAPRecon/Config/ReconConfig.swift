import AppleData
import Foundation
import ReconFindings
import ReconImport
import ReconLookup
import ReconModel
import ReconReports
import ReconStorage
import ReconVerify

/// What one command was asked to do, as given: built-in defaults (the initial values below: each default's one
/// home; those the HTTP layer has too are read from it), then `--config FILE`, then the environment's secrets, then
/// flags (later wins).
///
/// The keys a file or a flag may set are ``keys``; the environment variables, ``environmentVariables``.
///
/// Secrets are never printed (see ``description``).
///
/// Nothing reads these raw values but ``validated()``, which turns them into the typed
/// ``ReconSettings`` every stage works from.
public struct ReconConfig: Sendable, Hashable {
    /// Format version of the config file.
    public var version = 1
    /// The SQLite store.
    public var databasePath: String
    /// Where reports go.
    public var outputDirectory = "reports"
    /// "Now" for grace periods and reports (epoch ms); nil = the clock.
    public var asOf: Int64?
    /// IANA time zone deciding the calendar day of purchases and refunds.
    public var timeZone = "UTC"
    /// IANA time zone of the Apple Summary Sales Reports' calendar days (Apple's zone for
    /// worldwide agreements by default).
    public var salesReportTimeZone = "America/Los_Angeles"
    /// The amount deferred revenue recognizes over the service period (CONTRACT §2, §5.1).
    public var recognitionBasis = RecognitionBasis.proceeds
    /// Inclusive day bounds of the revenue report (`yyyy-MM-dd`).
    public var fromDay: String?
    public var toDay: String?
    /// Exit 3 when a finding at or above this severity exists; nil = never.
    public var failOn: Severity?
    /// Any rejected input row fails the command.
    public var strict = false
    /// Judge every transaction, whatever the last report kept (`--full`, CONTRACT §5 "Incremental reports").
    public var fullReport = false
    /// A report judges every transaction once more than this share of the ledger (percent) would be judged again.
    ///
    /// Reading the whole ledger in order is then faster than looking the changed ones up; 100: never. Not a flag.
    public var incrementalLimitPercent = 25
    public var deliveryGraceMillis: Int64 = 3_600_000
    public var finishGraceMillis: Int64 = 86_400_000
    public var pendingLimitMillis: Int64 = 86_400_000
    /// How long after the backend's `expires_at` an entitlement is still compared with Apple (a renewal the backend
    /// never heard of must still be found).
    public var entitlementLookbackMillis: Int64 = 60 * 86_400_000
    /// How far the backend's `expires_at` may be from Apple's before `ENTITLEMENT_EXPIRY_MISMATCH`.
    public var entitlementToleranceMillis: Int64 = 86_400_000
    /// The app's own bundle ids.
    public var bundleIDs: [String] = []
    /// When the ledger begins (`--ledger-start`: a day `2026-01-01` or an ISO 8601 time / epoch ms), as given;
    /// checked into ``ReconSettings/ledgerStart``.
    ///
    /// Nil: the ledger holds everything.
    public var ledgerStart: String?
    /// Extra trusted root certificates (DER or PEM files).
    public var trustedRoots: [String] = []
    /// Apple's endpoints, the timeout of one request and how many run at once: ``AppStoreEndpoints/apple``'s by
    /// default (the HTTP layer's defaults, written there once).
    public var verifyReceiptURL = AppStoreEndpoints.apple.verifyReceiptProduction.absoluteString
    public var sandboxVerifyReceiptURL = AppStoreEndpoints.apple.verifyReceiptSandbox.absoluteString
    public var serverAPIURL = AppStoreEndpoints.apple.serverAPIProduction.absoluteString
    public var sandboxServerAPIURL = AppStoreEndpoints.apple.serverAPISandbox.absoluteString
    public var concurrency = AppStoreEndpoints.apple.concurrency
    public var requestTimeoutMillis = AppStoreEndpoints.apple.requestTimeout.inMilliseconds
    /// Attempts per Apple request before giving up (the transaction stays pending); ``RetryPolicy/default``'s by
    /// default, as are the budget and the first delay.
    public var retryAttempts = RetryPolicy.default.maxAttempts
    /// Wall time one request may spend on retries.
    public var retryBudgetMillis = RetryPolicy.default.budget.inMilliseconds
    /// First backoff delay (doubles up to 20 s, with jitter).
    public var retryBaseDelayMillis = RetryPolicy.default.baseDelay.inMilliseconds
    /// Ask verifyReceipt for only the latest renewal of each subscription.
    public var excludeOldTransactions = false
    /// How far back (days) the first Get Notification History sweep goes; Apple keeps 180.
    public var historyDays = 30
    /// verifyReceipt password.
    ///
    /// Secret.
    public var sharedSecret: String?
    /// App Store Server API credentials.
    ///
    /// The key file's path is not secret; its contents are.
    public var apiKeyFile: String?
    public var apiKeyID: String?
    public var issuerID: String?
    /// The token every request to `serve` must carry (`IAP_RECON_SERVE_TOKEN`; never in a file).
    ///
    /// Secret.
    public var serveToken: String?
    /// The backend's PostgreSQL to read inputs from (CONTRACT §1.7), as given.
    public var databaseSource = DatabaseSourceConfig()
    /// The files `import` and `run` read (`--transactions`, `--receipts`, …; or the config file's keys).
    public var inputFiles = ImportRequest()
    /// Logging: `trace` … `critical`, and `text` or `json` (one object per line).
    public var logLevel = "info"
    public var logFormat = "text"
    /// `serve`: the address and port it listens on (0 picks a free port).
    public var serveHost = "127.0.0.1"
    public var servePort = 8080
    /// `lookup`: `text` or `json`.
    public var lookupFormat = "text"
    /// `answer-consumption --dry-run`: print what would be sent; send and write nothing.
    public var consumptionDryRun = false

    /// A store as it may be shown: a file's path, or a `postgresql://` URL without its password (still a `--db`
    /// that works, with the password in `PGPASSWORD`).
    public static func shownStore(_ databasePath: String) -> String {
        guard DatabaseSource.isURL(databasePath) else { return databasePath }
        guard var components = URLComponents(string: databasePath) else { return DatabaseSource.redacted(databasePath) }
        components.password = nil
        return components.string ?? DatabaseSource.redacted(databasePath)
    }

    public init(databasePath: String) {
        self.databasePath = databasePath
    }

    /// A configuration with every field pinned, for tests.
    public static func forTesting(databasePath: String, outputDirectory: String) -> ReconConfig {
        var config = ReconConfig(databasePath: databasePath)
        config.outputDirectory = outputDirectory
        config.asOf = 1_795_176_000_000  // 2026-11-20T12:00:00Z
        config.timeZone = "UTC"
        return config
    }
}

extension ReconConfig {
    /// Whether App Store Server API credentials are complete.
    public var hasServerAPICredentials: Bool {
        apiKeyFile != nil && apiKeyID != nil && issuerID != nil && !bundleIDs.isEmpty
    }
}

extension ReconConfig: CustomStringConvertible {
    /// A description that never contains a secret.
    public var description: String {
        "ReconConfig(db: \(Self.shownStore(databasePath)), out: \(outputDirectory), timeZone: \(timeZone), sharedSecret: \(sharedSecret == nil ? "unset" : "<redacted>"), apiKey: \(apiKeyFile == nil ? "unset" : "<redacted>"))"
    }
}
