import ArgumentParser
import Foundation
import IAPRecon
import Logging

/// `--db STORE`: every command names the store, a file or a PostgreSQL database.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The store: an SQLite file, or postgresql://USER@HOST:PORT/DB?sslmode=... (password from PGPASSWORD, "
                + "the config file or the URL). import and run create it when absent; other commands need it.",
            valueName: "store"))
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

    @Option(
        name: .customLong("consents"),
        help: ArgumentHelp(
            "Who agreed to share consumption information with Apple, .csv or .jsonl (repeatable).",
            valueName: "file"))
    var consents: [String] = []

    @Flag(name: .customLong("strict"), help: "Exit non-zero when any input row is rejected.")
    var strict = false

    var request: ImportRequest {
        ImportRequest(
            transactions: transactions, receipts: receipts, products: products, salesReports: salesReports,
            notifications: notifications, financialReports: financialReports, payments: payments,
            entitlements: entitlements, consents: consents)
    }
}

/// Options of commands that detect findings and write reports.
struct ReportOptions: SettingFlags {
    @Option(setting: "out") var out: String?

    @Option(
        name: .customLong("as-of"),
        help: ArgumentHelp(
            "Fix \"now\" (ISO 8601 with offset, or epoch ms) so a rerun reproduces the same reports.", valueName: "time"
        ))
    var asOf: String?

    @Option(setting: "timezone") var timeZone: String?

    @Option(
        name: .customLong("from"),
        help: ArgumentHelp("First day of the revenue report (yyyy-MM-dd).", valueName: "date"))
    var fromDay: String?

    @Option(
        name: .customLong("to"), help: ArgumentHelp("Last day of the revenue report (yyyy-MM-dd).", valueName: "date"))
    var toDay: String?

    @Option(setting: "fail-on") var failOn: String?

    @Flag(
        name: .customLong("full"),
        help: "Judge every transaction again instead of only those changed since the last report (same reports).")
    var full = false

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
struct ConfigOptions: SettingFlags {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp("A JSON config file; keys are the long option names.", valueName: "file"))
    var configFile: String?

    @Option(setting: "delivery-grace") var deliveryGrace: String?
    @Option(setting: "finish-grace") var finishGrace: String?
    @Option(setting: "entitlement-lookback") var entitlementLookback: String?
    @Option(setting: "entitlement-tolerance") var entitlementTolerance: String?
    @Option(setting: "pending-limit") var pendingLimit: String?
    @Option(setting: "bundle-id") var bundleID: [String] = []
    @Option(setting: "ledger-start") var ledgerStart: String?
    @Option(setting: "trusted-root") var trustedRoot: [String] = []
    @Option(setting: "verify-receipt-url") var verifyReceiptURL: String?
    @Option(setting: "sandbox-verify-receipt-url") var sandboxVerifyReceiptURL: String?
    @Option(setting: "server-api-url") var serverAPIURL: String?
    @Option(setting: "sandbox-server-api-url") var sandboxServerAPIURL: String?
    @Option(setting: "sales-report-timezone") var salesReportTimeZone: String?
    @Option(setting: "recognition-basis") var recognitionBasis: String?
    @Option(setting: "concurrency") var concurrency: String?
    @Option(setting: "request-timeout") var requestTimeout: String?
    @Flag(setting: "exclude-old-transactions") var excludeOldTransactions = false
    @Option(setting: "history-days") var historyDays: String?

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp("trace, debug, info, notice, warning, error, critical.", valueName: "level"))
    var logLevel = "info"

    @Option(
        name: .customLong("log-format"),
        help: ArgumentHelp("text or json (one JSON object per line, for log shippers).", valueName: "format"))
    var logFormat = "text"

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

/// A group of flags some of which set rows of the key table (``ReconConfig/keys``), each declared in one line:
/// `@Option(setting: "delivery-grace") var deliveryGrace: String?`, `@Option(setting: "bundle-id") var bundleID:
/// [String] = []` or `@Flag(setting: "exclude-old-transactions") var excludeOldTransactions = false`.
///
/// The row gives the flag its long name, its help (with the default), its value name and how its value is read; the
/// value is found by the property's name, the key's words run together in any case (`verifyReceiptURL` for
/// `verify-receipt-url`).
protocol SettingFlags: ParsableArguments {}

extension SettingFlags {
    /// The settings these flags give, by config key, in the key table's order; nil: not given.
    var settings: [(String, ReconConfig.Input?)] {
        var given: [String: ReconConfig.Input?] = [:]
        for child in Mirror(reflecting: self).children {
            guard let label = child.label else { continue }
            let name = (label.hasPrefix("_") ? label.dropFirst() : label[...]).lowercased()
            let input: ReconConfig.Input?
            switch child.value {
            case let option as Option<String?>: input = option.wrappedValue.map { .text($0) }
            case let option as Option<[String]>: input = option.wrappedValue.isEmpty ? nil : .list(option.wrappedValue)
            case let flag as Flag<Bool>: input = flag.wrappedValue ? .flag(true) : nil
            default: continue
            }
            given.updateValue(input, forKey: name)
        }
        return ReconConfig.keys.compactMap { key in
            let name = key.name.filter { $0 != "-" }.lowercased()
            return given.index(forKey: name).map { (key.name, given[$0].value) }
        }
    }
}

extension Option where Value == String? {
    /// The flag of the setting `name`, a row of ``ReconConfig/keys``: `--name VALUE`.
    init(setting name: String) {
        self.init(name: .customLong(name), help: .setting(name))
    }
}

extension Option where Value == [String] {
    /// The repeatable flag of the list setting `name`, a row of ``ReconConfig/keys``.
    init(wrappedValue: [String], setting name: String) {
        self.init(wrappedValue: wrappedValue, name: .customLong(name), help: .setting(name))
    }
}

extension Flag where Value == Bool {
    /// The toggle of the setting `name`, a row of ``ReconConfig/keys``: `--name` alone.
    init(wrappedValue: Bool, setting name: String) {
        self.init(wrappedValue: wrappedValue, name: .customLong(name), help: .setting(name))
    }
}

extension ArgumentHelp {
    /// The help of the flag for the config key `name`: what it sets, its default and its value's name, from
    /// ``ReconConfig/keys``.
    static func setting(_ name: String) -> ArgumentHelp {
        let key = ReconConfig.key(name)
        return ArgumentHelp(key?.help ?? "", valueName: key?.valueName)
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
