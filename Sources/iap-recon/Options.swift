import ArgumentParser
import Foundation
import IAPRecon
import Logging

/// `--db STORE`: every command names the store, a file or a PostgreSQL database (or the config file's `db` does).
struct StoreOptions: SettingFlags {
    @Option(setting: "db") var db: String?
}

/// Input files of an import; each flag is a config file key of the same name.
struct InputOptions: SettingFlags {
    @Option(setting: "transactions") var transactions: [String] = []
    @Option(setting: "receipts") var receipts: [String] = []
    @Option(setting: "products") var products: [String] = []
    @Option(setting: "sales-report") var salesReport: [String] = []
    @Option(setting: "notifications") var notifications: [String] = []
    @Option(setting: "financial-report") var financialReport: [String] = []
    @Option(setting: "payments") var payments: [String] = []
    @Option(setting: "entitlements") var entitlements: [String] = []
    @Option(setting: "consents") var consents: [String] = []
    @Flag(setting: "strict") var strict = false

    /// Whether no input file was given on the command line.
    var isEmpty: Bool { settings.allSatisfy { $0.0 == "strict" || $0.1 == nil } }
}

/// Options of commands that detect findings and write reports.
struct ReportOptions: SettingFlags {
    @Option(setting: "out") var out: String?
    @Option(setting: "as-of") var asOf: String?
    @Option(setting: "timezone") var timeZone: String?
    @Option(setting: "from") var from: String?
    @Option(setting: "to") var to: String?
    @Option(setting: "fail-on") var failOn: String?
    @Flag(setting: "full") var full = false

    func validate() throws {
        var config = ReconConfig(databasePath: "")
        try config.apply(flags: settings)
        try config.checkFlags()
    }
}

/// Grace periods, bundle ids, trust and endpoints: the `[config]` options of CONTRACT §2.
///
/// Each flag is a config file key of the same name (``ReconConfig/keys``): its help and its default come from
/// there, and its value is read and checked as the file's is.
struct ConfigOptions: SettingFlags {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "A JSON config file; keys are the long option names (db, out, log-level, …); flags win over it.",
            valueName: "file"))
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

    @Option(setting: "log-level") var logLevel: String?
    @Option(setting: "log-format") var logFormat: String?

    func validate() throws {
        var config = ReconConfig(databasePath: "")
        try config.apply(flags: settings)
        try config.checkFlags()
    }

    /// A usage error when neither `--db` nor a config file (which may hold `db`) names the store.
    func requireStore(_ store: StoreOptions) throws {
        if store.db == nil, configFile == nil {
            throw ValidationError("missing --db STORE (or --config FILE holding \"db\")")
        }
    }

    /// Builds the configuration: defaults, then the config file, then the environment, then flags (these and the
    /// store's; `configure` sets the command's own).
    ///
    /// - Throws: ``ConfigError`` for a bad file or value, or when nothing names the store.
    func makeConfig(store: StoreOptions, configure: (inout ReconConfig) throws -> Void = { _ in }) throws
        -> ReconConfig
    {
        var config = ReconConfig(databasePath: "")
        if let configFile { try config.apply(configFile: configFile) }
        config.applyEnvironment(ProcessInfo.processInfo.environment)
        try config.apply(flags: settings + store.settings)
        try configure(&config)
        guard !config.databasePath.isEmpty else { throw ConfigError.noStore(configFile: configFile ?? "") }
        return config
    }

    /// The logger `config` asks for: its level, and text or JSON lines on stderr.
    func makeLogger(_ config: ReconConfig) -> Logger {
        let json = config.logFormat == "json"
        var logger = Logger(label: "iap-recon") { label in
            json ? JSONLogHandler(label: label) as any LogHandler : StreamLogHandler.standardError(label: label)
        }
        logger.logLevel = Logger.Level(rawValue: config.logLevel) ?? .info
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
    _ options: ConfigOptions, store: StoreOptions, opening: ReconStore.Opening,
    configure: (inout ReconConfig) throws -> Void = { _ in },
    _ command: (ReconDependencies) async throws -> CommandOutput
) async throws {
    try await execute {
        let config = try options.makeConfig(store: store, configure: configure)
        let dependencies = try ReconDependencies(config: config, logger: options.makeLogger(config), opening: opening)
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
