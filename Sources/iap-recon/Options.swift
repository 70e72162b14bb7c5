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

    @Option(
        name: .customLong("financial-report"),
        help: ArgumentHelp(
            "Apple Financial Report (a fiscal month, one region or all), .txt or .txt.gz (repeatable).",
            valueName: "file"))
    var financialReports: [String] = []

    @Option(
        name: .customLong("payments"),
        help: ArgumentHelp("Apple payment summary of a fiscal month, .csv (repeatable).", valueName: "file"))
    var payments: [String] = []

    @Option(
        name: .customLong("entitlements"),
        help: ArgumentHelp(
            "The backend's subscription entitlements, .csv or .jsonl (repeatable).", valueName: "file"))
    var entitlements: [String] = []

    @Flag(name: .customLong("strict"), help: "Exit non-zero when any input row is rejected.")
    var strict = false

    var request: ImportRequest {
        ImportRequest(
            transactions: transactions, receipts: receipts, products: products, salesReports: salesReports,
            notifications: notifications, financialReports: financialReports, payments: payments,
            entitlements: entitlements)
    }
}

/// Options of commands that detect findings and write reports.
struct ReportOptions: ParsableArguments {
    @Option(name: .customLong("out"), help: .setting("out", valueName: "dir"))
    var outputDirectory: String?

    @Option(
        name: .customLong("as-of"),
        help: ArgumentHelp(
            "Fix \"now\" (ISO 8601 with offset, or epoch ms) so a rerun reproduces the same reports.", valueName: "time"
        ))
    var asOf: String?

    @Option(name: .customLong("timezone"), help: .setting("timezone", valueName: "tz"))
    var timeZone: String?

    @Option(
        name: .customLong("from"),
        help: ArgumentHelp("First day of the revenue report (yyyy-MM-dd).", valueName: "date"))
    var fromDay: String?

    @Option(
        name: .customLong("to"), help: ArgumentHelp("Last day of the revenue report (yyyy-MM-dd).", valueName: "date"))
    var toDay: String?

    @Option(name: .customLong("fail-on"), help: .setting("fail-on", valueName: "severity"))
    var failOn: String?

    @Flag(
        name: .customLong("full"),
        help: "Judge every transaction again instead of only those changed since the last report (same reports).")
    var full = false

    /// The settings these flags give, by config key.
    var settings: [(String, ReconConfig.Input?)] {
        [
            ("out", outputDirectory.map { .text($0) }), ("timezone", timeZone.map { .text($0) }),
            ("fail-on", failOn.map { .text($0) }),
        ]
    }

    func validate() throws {
        if let asOf, Timestamp.parse(asOf) == nil {
            throw ValidationError(
                "--as-of '\(asOf)' is not a time: use ISO 8601 with an offset (2026-11-20T00:00:00Z) or epoch milliseconds"
            )
        }
        var config = ReconConfig(databasePath: "")
        try apply(to: &config)
        try config.checkFlags()
    }

    /// Sets what these flags give on `config` (a value that is not what its flag takes is a usage error).
    func apply(to config: inout ReconConfig) throws {
        try config.apply(flags: settings)
        if let asOf { config.asOf = Timestamp.parse(asOf) }
        config.fromDay = fromDay
        config.toDay = toDay
        config.fullReport = full
    }
}

/// Grace periods, bundle ids, trust and endpoints: the `[config]` options of CONTRACT §2.
///
/// Each flag is a config file key of the same name (``ReconConfig/keys``): its help and its default come from
/// there, and its value is read and checked as the file's is.
struct ConfigOptions: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp("A JSON config file; keys are the long option names.", valueName: "file"))
    var configFile: String?

    @Option(name: .customLong("delivery-grace"), help: .setting("delivery-grace", valueName: "duration"))
    var deliveryGrace: String?

    @Option(name: .customLong("finish-grace"), help: .setting("finish-grace", valueName: "duration"))
    var finishGrace: String?

    @Option(
        name: .customLong("entitlement-lookback"), help: .setting("entitlement-lookback", valueName: "duration"))
    var entitlementLookback: String?

    @Option(
        name: .customLong("entitlement-tolerance"), help: .setting("entitlement-tolerance", valueName: "duration"))
    var entitlementTolerance: String?

    @Option(name: .customLong("pending-limit"), help: .setting("pending-limit", valueName: "duration"))
    var pendingLimit: String?

    @Option(name: .customLong("bundle-id"), help: .setting("bundle-id", valueName: "id"))
    var bundleIDs: [String] = []

    @Option(name: .customLong("ledger-start"), help: .setting("ledger-start", valueName: "date"))
    var ledgerStart: String?

    @Option(name: .customLong("trusted-root"), help: .setting("trusted-root", valueName: "file"))
    var trustedRoots: [String] = []

    @Option(name: .customLong("verify-receipt-url"), help: .setting("verify-receipt-url", valueName: "url"))
    var verifyReceiptURL: String?

    @Option(
        name: .customLong("sandbox-verify-receipt-url"), help: .setting("sandbox-verify-receipt-url", valueName: "url"))
    var sandboxVerifyReceiptURL: String?

    @Option(name: .customLong("server-api-url"), help: .setting("server-api-url", valueName: "url"))
    var serverAPIURL: String?

    @Option(name: .customLong("sandbox-server-api-url"), help: .setting("sandbox-server-api-url", valueName: "url"))
    var sandboxServerAPIURL: String?

    @Option(name: .customLong("sales-report-timezone"), help: .setting("sales-report-timezone", valueName: "tz"))
    var salesReportTimeZone: String?

    @Option(name: .customLong("concurrency"), help: .setting("concurrency", valueName: "n"))
    var concurrency: String?

    @Option(name: .customLong("request-timeout"), help: .setting("request-timeout", valueName: "duration"))
    var requestTimeout: String?

    @Flag(name: .customLong("exclude-old-transactions"), help: .setting("exclude-old-transactions"))
    var excludeOldTransactions = false

    @Option(name: .customLong("history-days"), help: .setting("history-days", valueName: "n"))
    var historyDays: String?

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp("trace, debug, info, notice, warning, error, critical.", valueName: "level"))
    var logLevel = "info"

    @Option(
        name: .customLong("log-format"),
        help: ArgumentHelp("text or json (one JSON object per line, for log shippers).", valueName: "format"))
    var logFormat = "text"

    /// The settings these flags give, by config key; nil: not given.
    var settings: [(String, ReconConfig.Input?)] {
        [
            ("delivery-grace", deliveryGrace.map { .text($0) }), ("finish-grace", finishGrace.map { .text($0) }),
            ("pending-limit", pendingLimit.map { .text($0) }),
            ("entitlement-lookback", entitlementLookback.map { .text($0) }),
            ("entitlement-tolerance", entitlementTolerance.map { .text($0) }),
            ("bundle-id", bundleIDs.isEmpty ? nil : .list(bundleIDs)), ("ledger-start", ledgerStart.map { .text($0) }),
            ("trusted-root", .list(trustedRoots)), ("verify-receipt-url", verifyReceiptURL.map { .text($0) }),
            ("sandbox-verify-receipt-url", sandboxVerifyReceiptURL.map { .text($0) }),
            ("server-api-url", serverAPIURL.map { .text($0) }),
            ("sandbox-server-api-url", sandboxServerAPIURL.map { .text($0) }),
            ("sales-report-timezone", salesReportTimeZone.map { .text($0) }),
            ("concurrency", concurrency.map { .text($0) }), ("request-timeout", requestTimeout.map { .text($0) }),
            ("exclude-old-transactions", excludeOldTransactions ? .flag(true) : nil),
            ("history-days", historyDays.map { .text($0) }),
        ]
    }

    func validate() throws {
        guard logFormat == "text" || logFormat == "json" else {
            throw ValidationError("--log-format must be text or json")
        }
        if Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError(
                "--log-level '\(logLevel)' must be one of trace, debug, info, notice, warning, error, critical")
        }
        var config = ReconConfig(databasePath: "")
        try config.apply(flags: settings)
        try config.checkFlags()
    }

    /// Builds the configuration: defaults, then the config file, then the environment, then flags.
    func makeConfig(databasePath: String) throws -> ReconConfig {
        var config = ReconConfig(databasePath: databasePath)
        if let configFile { try config.apply(configFile: configFile) }
        config.applyEnvironment(ProcessInfo.processInfo.environment)
        try config.apply(flags: settings)
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

extension ArgumentHelp {
    /// The help of the flag for the config key `name`: what it sets and its default, from ``ReconConfig/keys``.
    static func setting(_ name: String, valueName: String? = nil) -> ArgumentHelp {
        ArgumentHelp(ReconConfig.key(name)?.help ?? "", valueName: valueName)
    }
}

extension ReconConfig {
    /// Sets the settings flags give (later wins over the file and the environment).
    ///
    /// - Throws: `ValidationError` (a usage error) when a value is not what its flag takes.
    mutating func apply(flags: [(String, ReconConfig.Input?)]) throws {
        for (name, input) in flags {
            guard let input, let key = Self.key(name) else { continue }
            do {
                try key.set(input, on: &self, fromFlag: true)
            } catch {
                throw ValidationError("--\(name) '\(error.value)' is not \(error.expected)")
            }
        }
    }

    /// Checks the flags' values alone (``ReconConfig/checked()``), as a usage error naming the flag.
    func checkFlags() throws {
        do {
            _ = try checked()
        } catch .invalid(let key, let value, let expected) {
            throw ValidationError("--\(key) '\(value)' is not \(expected)")
        } catch {
            throw ValidationError(describe(error))
        }
    }
}

/// Runs one command: builds the configuration (defaults, `--config`, environment, flags), the composition root
/// and the logger, calls the library, prints its lines and ends with its exit status.
///
/// The one place a command's error line is printed.
func execute(
    _ options: ConfigOptions, databasePath: String, opening: ReconStore.Opening,
    configure: (inout ReconConfig) throws -> Void = { _ in },
    _ command: (ReconDependencies) async throws -> CommandOutput
) async throws {
    try await execute {
        var config = try options.makeConfig(databasePath: databasePath)
        try configure(&config)
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
