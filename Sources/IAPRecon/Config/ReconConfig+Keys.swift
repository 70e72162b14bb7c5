import AppleData
import ReconFindings
import ReconImport
import ReconLookup
import ReconModel
import ReconReports
import ReconStorage
import ReconVerify

/// Every setting a config file key or a flag may set, each written once: its name, what it sets, how its text is
/// read and checked, which ``ReconConfig`` property holds it (whose initial value is the default) and its flag.
///
/// The config file (``ConfigFile``), the flags (their names, help texts, value names and values) and
/// ``ReconConfig/checked()`` all read this table. Adding a setting is its property with the default, a row here and,
/// when it has a flag, the flag's one line in the executable (`@Option(setting: "name") var name: String?`); what
/// uses it reads it from ``ReconSettings`` (through to the property, or typed there when it changes type).
extension ReconConfig {
    /// One setting: its config file key (the long flag name), what it sets, and how its value is read.
    public struct Key {
        /// The config file key and the long flag name (`finish-grace`).
        public let name: String
        /// What it sets, as the flag's help says it (without the default).
        public let summary: String
        package let kind: Kind
        /// The default in words when it is not a value (`never`, `Apple's roots`); nil: the property's value.
        package let defaultWords: String?
        /// The flag of the same name; nil: the setting is read from the config file (or the environment) only.
        public let flag: Flag?

        package init(
            _ name: String, _ summary: String, _ kind: Kind, default defaultWords: String? = nil, flag: Flag? = nil
        ) {
            self.name = name
            self.summary = summary
            self.kind = kind
            self.defaultWords = defaultWords
            self.flag = flag
        }
    }

    /// How a setting's flag is given on the command line.
    public enum Flag: Sendable, Hashable {
        /// `--name VALUE`; `--help` shows the value as `<valueName>`.
        case option(_ valueName: String)
        /// `--name` alone: sets a ``Kind/bool`` setting to true.
        case toggle
    }

    /// How a setting's text is read, and where it goes.
    package enum Kind {
        /// `version`: must be ``ConfigFile/currentVersion``.
        case version
        /// Any text (time zones are checked by ``ReconConfig/checked()``).
        case text(WritableKeyPath<ReconConfig, String>)
        /// An absolute http(s) URL.
        case url(WritableKeyPath<ReconConfig, String>)
        /// Any text; unset by default.
        case optionalText(WritableKeyPath<ReconConfig, String?>)
        /// A duration like `90m`, kept in milliseconds.
        case duration(WritableKeyPath<ReconConfig, Int64>)
        /// A whole number in `range`.
        case number(WritableKeyPath<ReconConfig, Int>, ClosedRange<Int>)
        /// A string or a list of strings; repeated flags add to the file's list when `flagsAdd`, else replace it.
        case list(WritableKeyPath<ReconConfig, [String]>, flagsAdd: Bool)
        /// `true` or `false`.
        case bool(WritableKeyPath<ReconConfig, Bool>)
        /// A ``Severity`` (`--fail-on`).
        case severity(WritableKeyPath<ReconConfig, Severity?>)
        /// `--ledger-start`: a day or a time, kept as given.
        case ledgerStart(WritableKeyPath<ReconConfig, String?>)
        /// `--recognition-basis`: `customer-price` or `proceeds`.
        case recognitionBasis(WritableKeyPath<ReconConfig, RecognitionBasis>)
        /// One of a few words (`--log-level`, `--log-format`, `lookup --format`).
        case choice(WritableKeyPath<ReconConfig, String>, [String])
        /// A time: ISO 8601 with an offset, or epoch milliseconds (`--as-of`); unset by default.
        case time(WritableKeyPath<ReconConfig, Int64?>)
        /// A day, `yyyy-MM-dd` (`--from`, `--to`); unset by default.
        case day(WritableKeyPath<ReconConfig, String?>)
    }

    /// A value as the config file or a flag gives it.
    public enum Input: Sendable, Hashable {
        case text(String)
        case list([String])
        case flag(Bool)
    }

    /// A value that is not what its key takes: the value as shown and what was expected.
    public struct Problem: Error, Sendable, Hashable {
        public var value: String
        public var expected: String
    }

    /// The settings, in the order a config file is checked: these, then what one command's run takes
    /// (``commandKeys``: the store, the inputs, logging, …).
    public static var keys: [Key] { settingKeys + commandKeys }

    /// The settings of the verification and the detection.
    static var settingKeys: [Key] {
        [
            Key("version", "Config file format version", .version),
            Key("out", "Folder for the reports", .text(\.outputDirectory), flag: .option("dir")),
            Key(
                "timezone", "IANA time zone deciding the calendar day of purchases and refunds", .text(\.timeZone),
                flag: .option("tz")),
            Key(
                "sales-report-timezone", "IANA time zone of the Apple sales reports' days",
                .text(\.salesReportTimeZone), flag: .option("tz")),
            Key(
                "recognition-basis",
                "The amount deferred revenue recognizes over the service period: customer-price or proceeds",
                .recognitionBasis(\.recognitionBasis), flag: .option("basis")),
            Key(
                "fail-on", "Exit 3 when a finding at or above this severity exists (critical, high, medium, low)",
                .severity(\.failOn), default: "never", flag: .option("severity")),
            Key(
                "delivery-grace", "How long after purchase delivery may take", .duration(\.deliveryGraceMillis),
                flag: .option("duration")),
            Key(
                "entitlement-lookback",
                "How long after the backend's expires_at an entitlement is still compared with Apple",
                .duration(\.entitlementLookbackMillis), flag: .option("duration")),
            Key(
                "entitlement-tolerance", "How far the backend's expires_at may be from Apple's expiry",
                .duration(\.entitlementToleranceMillis), flag: .option("duration")),
            Key(
                "finish-grace", "How long after delivery finishing may take", .duration(\.finishGraceMillis),
                flag: .option("duration")),
            Key(
                "pending-limit", "How long a purchase may stay pending", .duration(\.pendingLimitMillis),
                flag: .option("duration")),
            Key(
                "request-timeout", "Timeout of one Apple request", .duration(\.requestTimeoutMillis),
                flag: .option("duration")),
            Key("retry-budget", "Wall time one Apple request may spend retrying", .duration(\.retryBudgetMillis)),
            Key(
                "retry-base-delay", "First backoff delay (doubles up to 20s, with jitter)",
                .duration(\.retryBaseDelayMillis)),
            Key("retry-attempts", "Attempts per Apple request", .number(\.retryAttempts, 1...20)),
            Key(
                "concurrency", "Apple requests in flight at once", .number(\.concurrency, 1...256),
                flag: .option("n")),
            Key(
                "bundle-id", "The app's own bundle id (repeatable)", .list(\.bundleIDs, flagsAdd: false),
                default: "none", flag: .option("id")),
            Key(
                "ledger-start", "When the ledger begins (2026-01-01): Apple's older purchases are not MISSING_RECORD",
                .ledgerStart(\.ledgerStart), default: "none", flag: .option("date")),
            Key(
                "trusted-root", "Extra trusted root certificate, DER or PEM (repeatable)",
                .list(\.trustedRoots, flagsAdd: true), default: "Apple's roots", flag: .option("file")),
            Key(
                "verify-receipt-url", "verifyReceipt production URL", .url(\.verifyReceiptURL),
                flag: .option("url")),
            Key(
                "sandbox-verify-receipt-url", "verifyReceipt sandbox URL", .url(\.sandboxVerifyReceiptURL),
                flag: .option("url")),
            Key(
                "server-api-url", "App Store Server API production base URL", .url(\.serverAPIURL),
                flag: .option("url")),
            Key(
                "sandbox-server-api-url", "App Store Server API sandbox base URL", .url(\.sandboxServerAPIURL),
                flag: .option("url")),
            Key(
                "exclude-old-transactions", "Ask verifyReceipt for only the latest renewal of each subscription",
                .bool(\.excludeOldTransactions), flag: .toggle),
            Key(
                "history-days", "How far back the first notification-history sweep goes, in days",
                .number(\.historyDays, 1...180), flag: .option("n")),
            Key(
                "shared-secret", "verifyReceipt password (a secret: prefer IAP_RECON_SHARED_SECRET)",
                .optionalText(\.sharedSecret), default: "none"),
            Key("api-key-file", "App Store Server API .p8 key file", .optionalText(\.apiKeyFile), default: "none"),
            Key("api-key-id", "App Store Server API key id", .optionalText(\.apiKeyID), default: "none"),
            Key("issuer-id", "App Store Server API issuer id", .optionalText(\.issuerID), default: "none"),
            Key(
                "source-db",
                "The backend's PostgreSQL to read inputs from: postgresql://USER[:PASSWORD]@HOST[:PORT]/DB"
                    + "[?sslmode=disable|require|verify-full] (password also from PGPASSWORD)",
                .optionalText(\.databaseSource.url), default: "none", flag: .option("url")),
            Key(
                "transactions-query", "SQL (or @FILE) whose rows are ledger transactions, read from source-db",
                .optionalText(\.databaseSource.transactionsQuery), default: "none", flag: .option("sql")),
            Key(
                "receipts-query", "SQL (or @FILE) whose rows are uploaded receipts, read from source-db",
                .optionalText(\.databaseSource.receiptsQuery), default: "none", flag: .option("sql")),
            Key(
                "notifications-query",
                "SQL (or @FILE) whose rows are stored App Store Server Notifications (signedPayload, received_at)",
                .optionalText(\.databaseSource.notificationsQuery), default: "none", flag: .option("sql")),
            Key(
                "products-query", "SQL (or @FILE) whose rows are the product catalog, read from source-db",
                .optionalText(\.databaseSource.productsQuery), default: "none", flag: .option("sql")),
            Key(
                "entitlements-query",
                "SQL (or @FILE) whose rows are the backend's subscription entitlements, read from source-db",
                .optionalText(\.databaseSource.entitlementsQuery), default: "none", flag: .option("sql")),
            Key(
                "consents-query",
                "SQL (or @FILE) whose rows are who agreed to share consumption information (user_id, consented_at, "
                    + "withdrawn_at), read from source-db",
                .optionalText(\.databaseSource.consentsQuery), default: "none", flag: .option("sql")),
        ]
    }

    /// The setting named `name`, if there is one.
    public static func key(_ name: String) -> Key? {
        keys.first { $0.name == name }
    }
}

extension ReconConfig.Key {
    /// The default, in words, read from a fresh ``ReconConfig``.
    public var defaultText: String {
        if let defaultWords { return defaultWords }
        let defaults = ReconConfig(databasePath: "")
        switch kind {
        case .version: return "\(ConfigFile.currentVersion)"
        case .text(let path), .url(let path): return defaults[keyPath: path]
        case .optionalText(let path), .ledgerStart(let path): return defaults[keyPath: path] ?? "none"
        case .duration(let path): return DurationText.text(defaults[keyPath: path])
        case .number(let path, _): return "\(defaults[keyPath: path])"
        case .list(let path, _): return defaults[keyPath: path].joined(separator: ", ")
        case .bool(let path): return "\(defaults[keyPath: path])"
        case .severity(let path): return defaults[keyPath: path]?.rawValue ?? "never"
        case .recognitionBasis(let path): return defaults[keyPath: path].rawValue
        case .choice(let path, _): return defaults[keyPath: path]
        case .time(let path): return defaults[keyPath: path].map(Timestamp.iso) ?? "the clock"
        case .day(let path): return defaults[keyPath: path] ?? "none"
        }
    }

    /// How the flag's `--help` shows its value (`duration`); nil for a toggle or a setting without a flag.
    public var valueName: String? {
        if case .option(let valueName) = flag { return valueName }
        return nil
    }

    /// The flag's help: what it sets and its default (and a number's range).
    public var help: String {
        if case .number(_, let range) = kind {
            return "\(summary) (default \(defaultText); \(range.lowerBound) to \(range.upperBound))."
        }
        return "\(summary) (default \(defaultText))."
    }

    /// What a value must look like, for an error line.
    package var expected: String {
        switch kind {
        case .version: return "\(ConfigFile.currentVersion), the format this program reads"
        case .text, .url, .optionalText: return "a string"
        case .duration: return "a duration like 90m, 1h, 2d"
        case .number(_, let range): return "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .list: return "a string or a list of strings"
        case .bool: return "true or false"
        case .severity: return "critical, high, medium or low"
        case .ledgerStart: return ReconConfig.ledgerStartExpected
        case .recognitionBasis: return "customer-price or proceeds"
        case .choice(_, let words):
            return words.dropLast().joined(separator: ", ") + (words.count > 1 ? " or " : "") + (words.last ?? "")
        case .time: return "a time: ISO 8601 with an offset (2026-11-20T00:00:00Z) or epoch milliseconds"
        case .day: return "a date like 2026-11-20"
        }
    }

    /// Sets this setting on `config` from `input` (a file's value, or a flag's).
    ///
    /// - Parameter fromFlag: a repeated flag adds to a list that says so, where a file's value replaces it.
    /// - Throws: ``ReconConfig/Problem`` when the value is not what this key takes.
    public func set(_ input: ReconConfig.Input, on config: inout ReconConfig, fromFlag: Bool = false)
        throws(ReconConfig.Problem)
    {
        let text: String
        switch (kind, input) {
        case (.list(let path, let flagsAdd), .list(let values)):
            config[keyPath: path] = fromFlag && flagsAdd ? config[keyPath: path] + values : values
            return
        case (.list(let path, _), .text(let value)):
            config[keyPath: path] = [value]
            return
        case (.bool(let path), .flag(let value)):
            config[keyPath: path] = value
            return
        case (_, .text(let value)):
            text = value
        default:
            throw ReconConfig.Problem(value: "a value of another type", expected: expected)
        }
        let problem = ReconConfig.Problem(value: text, expected: expected)
        switch kind {
        case .version:
            guard Int(text) == ConfigFile.currentVersion else { throw problem }
            config.version = ConfigFile.currentVersion
        case .text(let path), .url(let path): config[keyPath: path] = text
        case .optionalText(let path): config[keyPath: path] = text
        case .duration(let path):
            guard let millis = DurationText.millis(text) else { throw problem }
            config[keyPath: path] = millis
        case .number(let path, let range):
            guard let number = Int(text), range.contains(number) else { throw problem }
            config[keyPath: path] = number
        case .severity(let path):
            guard let severity = Severity(rawValue: text.lowercased()) else { throw problem }
            config[keyPath: path] = severity
        case .ledgerStart(let path):
            guard ReconConfig.ledgerStartMillis(text) != nil else { throw problem }
            config[keyPath: path] = text
        case .recognitionBasis(let path):
            guard let basis = RecognitionBasis(rawValue: text.lowercased()) else { throw problem }
            config[keyPath: path] = basis
        case .choice(let path, let words):
            guard words.contains(text) else { throw problem }
            config[keyPath: path] = text
        case .time(let path):
            guard let millis = Timestamp.parse(text) else { throw problem }
            config[keyPath: path] = millis
        case .day(let path):
            guard (try? ReconConfig.day(text, key: name)) != nil else { throw problem }
            config[keyPath: path] = text
        case .list, .bool:
            throw problem
        }
    }

    /// Checks the value `config` holds for this setting (a duration of zero or more, a number in range, an http(s)
    /// URL).
    ///
    /// - Throws: ``ConfigError`` naming the key.
    package func check(_ config: ReconConfig) throws(ConfigError) {
        switch kind {
        case .duration(let path):
            let millis = config[keyPath: path]
            guard millis >= 0 else {
                throw .invalid(key: name, value: "\(millis) ms", expected: "a duration of zero or more")
            }
        case .number(let path, let range):
            let number = config[keyPath: path]
            guard range.contains(number) else { throw .invalid(key: name, value: "\(number)", expected: expected) }
        case .url(let path):
            let text = config[keyPath: path]
            do {
                _ = try AppStoreEndpoints.checkedURL(text, setting: name)
            } catch {
                throw .invalid(key: name, value: text, expected: "an http(s) URL")
            }
        default:
            return
        }
    }
}
