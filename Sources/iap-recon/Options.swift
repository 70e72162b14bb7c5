import ArgumentParser
import Foundation
import IAPRecon
import Logging

/// `--db PATH`: every command names the store.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The SQLite store (import and run create it when absent; other commands need it).", valueName: "path"))
    var databasePath: String
}

/// Input files of an import.
struct InputOptions: ParsableArguments {
    @Option(
        name: .customLong("transactions"),
        help: ArgumentHelp("Purchase ledger, .csv or .jsonl (repeatable).", valueName: "file"))
    var transactions: [String] = []

    @Option(
        name: .customLong("receipts"), help: ArgumentHelp("Uploaded receipts, .jsonl (repeatable).", valueName: "file"))
    var receipts: [String] = []

    @Option(name: .customLong("products"), help: ArgumentHelp("Product catalog, .csv (repeatable).", valueName: "file"))
    var products: [String] = []

    @Option(
        name: .customLong("sales-report"),
        help: ArgumentHelp("Apple Summary Sales Report, .txt or .txt.gz (repeatable).", valueName: "file"))
    var salesReports: [String] = []

    @Option(
        name: .customLong("notifications"),
        help: ArgumentHelp(
            "App Store Server Notifications V2 as the webhook stored them, .jsonl (repeatable).", valueName: "file"))
    var notifications: [String] = []

    @Flag(name: .customLong("strict"), help: "Exit non-zero when any input row is rejected.")
    var strict = false

    var request: ImportRequest {
        ImportRequest(
            transactions: transactions, receipts: receipts, products: products, salesReports: salesReports,
            notifications: notifications)
    }
}

/// Options of commands that detect findings and write reports.
struct ReportOptions: ParsableArguments {
    @Option(name: .customLong("out"), help: ArgumentHelp("Folder for the reports (default reports).", valueName: "dir"))
    var outputDirectory: String?

    @Option(
        name: .customLong("as-of"),
        help: ArgumentHelp(
            "Fix \"now\" (ISO 8601 with offset, or epoch ms) so a rerun reproduces the same reports.", valueName: "time"
        ))
    var asOf: String?

    @Option(
        name: .customLong("timezone"),
        help: ArgumentHelp("IANA time zone deciding the calendar day of purchases (default UTC).", valueName: "tz"))
    var timeZone: String?

    @Option(
        name: .customLong("from"),
        help: ArgumentHelp("First day of the revenue report (yyyy-MM-dd).", valueName: "date"))
    var fromDay: String?

    @Option(
        name: .customLong("to"), help: ArgumentHelp("Last day of the revenue report (yyyy-MM-dd).", valueName: "date"))
    var toDay: String?

    @Option(
        name: .customLong("fail-on"),
        help: ArgumentHelp(
            "Exit 3 when a finding at or above this severity exists (critical, high, medium, low).",
            valueName: "severity"))
    var failOn: String?

    func validate() throws {
        if let asOf, Timestamp.parse(asOf) == nil {
            throw ValidationError(
                "--as-of '\(asOf)' is not a time: use ISO 8601 with an offset (2026-11-20T00:00:00Z) or epoch milliseconds"
            )
        }
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            throw ValidationError("--timezone '\(timeZone)' is not an IANA time zone (e.g. UTC, America/Los_Angeles)")
        }
        for (flag, value) in [("--from", fromDay), ("--to", toDay)] {
            if let value, Timestamp.parse(value + "T00:00:00Z") == nil {
                throw ValidationError("\(flag) '\(value)' is not a date like 2026-11-20")
            }
        }
        if let failOn, Severity(rawValue: failOn.lowercased()) == nil {
            throw ValidationError("--fail-on '\(failOn)' must be one of critical, high, medium, low")
        }
    }

    func apply(to config: inout ReconConfig) {
        if let outputDirectory { config.outputDirectory = outputDirectory }
        if let asOf { config.asOf = Timestamp.parse(asOf) }
        if let timeZone { config.timeZone = timeZone }
        config.fromDay = fromDay
        config.toDay = toDay
        if let failOn { config.failOn = Severity(rawValue: failOn.lowercased()) }
    }
}

/// Grace periods, bundle ids, trust and endpoints: the `[config]` options of SPEC §2.
struct ConfigOptions: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp("A JSON config file; keys are the long option names.", valueName: "file"))
    var configFile: String?

    @Option(
        name: .customLong("delivery-grace"),
        help: ArgumentHelp("How long after purchase delivery may take (default 1h).", valueName: "duration"))
    var deliveryGrace: String?

    @Option(
        name: .customLong("finish-grace"),
        help: ArgumentHelp("How long after delivery finishing may take (default 24h).", valueName: "duration"))
    var finishGrace: String?

    @Option(
        name: .customLong("pending-limit"),
        help: ArgumentHelp("How long a purchase may stay pending (default 24h).", valueName: "duration"))
    var pendingLimit: String?

    @Option(
        name: .customLong("bundle-id"), help: ArgumentHelp("The app's own bundle id (repeatable).", valueName: "id"))
    var bundleIDs: [String] = []

    @Option(
        name: .customLong("ledger-start"),
        help: ArgumentHelp(
            "When the ledger begins (2026-01-01): Apple's older purchases are not MISSING_RECORD.", valueName: "date"))
    var ledgerStart: String?

    @Option(
        name: .customLong("trusted-root"),
        help: ArgumentHelp("Extra trusted root certificate, DER or PEM (repeatable).", valueName: "file"))
    var trustedRoots: [String] = []

    @Option(
        name: .customLong("verify-receipt-url"),
        help: ArgumentHelp("verifyReceipt production URL (default Apple's).", valueName: "url"))
    var verifyReceiptURL: String?

    @Option(
        name: .customLong("sandbox-verify-receipt-url"),
        help: ArgumentHelp("verifyReceipt sandbox URL (default Apple's).", valueName: "url"))
    var sandboxVerifyReceiptURL: String?

    @Option(
        name: .customLong("server-api-url"),
        help: ArgumentHelp("App Store Server API production base URL (default Apple's).", valueName: "url"))
    var serverAPIURL: String?

    @Option(
        name: .customLong("sandbox-server-api-url"),
        help: ArgumentHelp("App Store Server API sandbox base URL (default Apple's).", valueName: "url"))
    var sandboxServerAPIURL: String?

    @Option(
        name: .customLong("sales-report-timezone"),
        help: ArgumentHelp(
            "IANA time zone of the Apple sales reports' days (default America/Los_Angeles).", valueName: "tz"))
    var salesReportTimeZone: String?

    @Option(
        name: .customLong("concurrency"),
        help: ArgumentHelp("Apple requests in flight at once (default 8).", valueName: "n"))
    var concurrency: Int?

    @Option(
        name: .customLong("request-timeout"),
        help: ArgumentHelp("Timeout of one Apple request (default 15s).", valueName: "duration"))
    var requestTimeout: String?

    @Flag(
        name: .customLong("exclude-old-transactions"),
        help: "Ask verifyReceipt for only the latest renewal of each subscription.")
    var excludeOldTransactions = false

    @Option(
        name: .customLong("history-days"),
        help: ArgumentHelp(
            "How far back the first notification-history sweep goes (default 30, at most 180).", valueName: "n"))
    var historyDays: Int?

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp("trace, debug, info, notice, warning, error, critical.", valueName: "level"))
    var logLevel = "info"

    @Option(
        name: .customLong("log-format"),
        help: ArgumentHelp("text or json (one JSON object per line, for log shippers).", valueName: "format"))
    var logFormat = "text"

    func validate() throws {
        if let concurrency, !(1...256).contains(concurrency) {
            throw ValidationError("--concurrency must be from 1 to 256")
        }
        if let historyDays, !(1...180).contains(historyDays) {
            throw ValidationError("--history-days must be from 1 to 180 (Apple keeps 180 days of notification history)")
        }
        guard logFormat == "text" || logFormat == "json" else {
            throw ValidationError("--log-format must be text or json")
        }
        for (flag, value) in [
            ("--verify-receipt-url", verifyReceiptURL), ("--sandbox-verify-receipt-url", sandboxVerifyReceiptURL),
            ("--server-api-url", serverAPIURL), ("--sandbox-server-api-url", sandboxServerAPIURL),
        ] {
            if let value, URL(string: value)?.scheme.map({ $0 == "http" || $0 == "https" }) != true {
                throw ValidationError("\(flag) '\(value)' is not an http(s) URL")
            }
        }
        for (flag, value) in [
            ("--delivery-grace", deliveryGrace), ("--finish-grace", finishGrace), ("--pending-limit", pendingLimit),
            ("--request-timeout", requestTimeout),
        ] {
            if let value, DurationText.millis(value) == nil {
                throw ValidationError("\(flag) '\(value)' is not a duration (e.g. 90m, 1h, 2d)")
            }
        }
        if let ledgerStart, ReconConfig.ledgerStartMillis(ledgerStart) == nil {
            throw ValidationError("--ledger-start '\(ledgerStart)' is not a date like 2026-01-01 or an ISO 8601 time")
        }
        if let salesReportTimeZone, TimeZone(identifier: salesReportTimeZone) == nil {
            throw ValidationError(
                "--sales-report-timezone '\(salesReportTimeZone)' is not an IANA time zone (e.g. America/Los_Angeles)")
        }
        if Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError(
                "--log-level '\(logLevel)' must be one of trace, debug, info, notice, warning, error, critical")
        }
    }

    /// Builds the configuration: defaults, then the config file, then the environment's
    /// secrets, then flags.
    func makeConfig(databasePath: String) throws -> ReconConfig {
        var config = ReconConfig(databasePath: databasePath)
        if let configFile { try config.apply(configFile: configFile) }
        config.applyEnvironment(ProcessInfo.processInfo.environment)
        if let verifyReceiptURL { config.verifyReceiptURL = verifyReceiptURL }
        if let sandboxVerifyReceiptURL { config.sandboxVerifyReceiptURL = sandboxVerifyReceiptURL }
        if let serverAPIURL { config.serverAPIURL = serverAPIURL }
        if let sandboxServerAPIURL { config.sandboxServerAPIURL = sandboxServerAPIURL }
        if let concurrency { config.concurrency = concurrency }
        if let salesReportTimeZone { config.salesReportTimeZone = salesReportTimeZone }
        if excludeOldTransactions { config.excludeOldTransactions = true }
        if let historyDays { config.historyDays = historyDays }
        if let requestTimeout, let ms = DurationText.millis(requestTimeout) { config.requestTimeoutMillis = ms }
        if let deliveryGrace, let ms = DurationText.millis(deliveryGrace) { config.deliveryGraceMillis = ms }
        if let finishGrace, let ms = DurationText.millis(finishGrace) { config.finishGraceMillis = ms }
        if let pendingLimit, let ms = DurationText.millis(pendingLimit) { config.pendingLimitMillis = ms }
        if !bundleIDs.isEmpty { config.bundleIDs = bundleIDs }
        if let ledgerStart { config.ledgerStart = ledgerStart }
        config.trustedRoots += trustedRoots
        return config
    }

    func makeLogger() -> Logger {
        let json = logFormat == "json"
        var logger = Logger(label: "iap-recon") { label in
            json ? JSONLogHandler(label: label) as any LogHandler : StreamLogHandler.standardError(label: label)
        }
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        return logger
    }
}

/// Runs one command: builds the configuration (defaults, `--config`, environment, flags), the composition root
/// and the logger, calls the library, prints its lines and ends with its exit status.
///
/// The one place a command's error line is printed.
func execute(
    _ options: ConfigOptions, databasePath: String, opening: ReconStore.Opening,
    configure: (inout ReconConfig) -> Void = { _ in },
    _ command: (ReconDependencies) async throws -> CommandOutput
) async throws {
    try await execute {
        var config = try options.makeConfig(databasePath: databasePath)
        configure(&config)
        let dependencies = try ReconDependencies(config: config, logger: options.makeLogger(), opening: opening)
        return try await command(dependencies)
    }
}

/// Runs `body`, prints its lines and ends with its exit status; an error is one line on stderr
/// and exit 1.
func execute(_ body: () async throws -> CommandOutput) async throws {
    let outcome: CommandOutput
    do {
        outcome = try await body()
    } catch {
        FileHandle.standardError.write(Data("iap-recon: error: \(describe(error))\n".utf8))
        throw ExitCode(ExitStatus.failed.rawValue)
    }
    for line in outcome.lines { print(line) }
    if outcome.status != .done { throw ExitCode(outcome.exitCode) }
}

/// A one-line description of any error, never a raw dump.
func describe(_ error: any Error) -> String {
    if let localized = error as? LocalizedError, let text = localized.errorDescription { return text }
    return String(describing: error)
}
