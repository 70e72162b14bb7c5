import Foundation

/// The `--config FILE` format: one JSON object whose keys are the long option names.
///
/// `version` must be ``currentVersion`` when present. Every value is checked while the file is
/// read, and a problem names the file and the key (never a raw decoding error).
public struct ConfigFile: Decodable, Sendable, Equatable {
    /// The format this program reads.
    public static let currentVersion = 1

    /// Every key a config file may hold, with what it sets.
    ///
    /// Keys are the long option names.
    public static let keys: [String: String] = [
        "version": "config file format version (1)",
        "out": "report folder (default reports)",
        "timezone": "IANA time zone for calendar days (default UTC)",
        "sales-report-timezone": "IANA time zone of the Apple sales reports' days (default America/Los_Angeles)",
        "fail-on": "exit 3 at or above this severity (default: never)",
        "delivery-grace": "duration (default 1h)",
        "finish-grace": "duration (default 24h)",
        "pending-limit": "duration (default 24h)",
        "bundle-id": "list of the app's bundle ids",
        "ledger-start": "when the ledger begins, a date (2026-01-01) or time; older purchases are not MISSING_RECORD",
        "trusted-root": "list of extra root certificate files (DER or PEM)",
        "verify-receipt-url": "default https://buy.itunes.apple.com/verifyReceipt",
        "sandbox-verify-receipt-url": "default https://sandbox.itunes.apple.com/verifyReceipt",
        "server-api-url": "default https://api.storekit.itunes.apple.com",
        "sandbox-server-api-url": "default https://api.storekit-sandbox.itunes.apple.com",
        "concurrency": "parallel Apple requests (default 8)",
        "request-timeout": "per-request timeout, duration (default 15s)",
        "retry-attempts": "attempts per Apple request (default 5)",
        "retry-budget": "wall time one request may spend retrying, duration (default 60s)",
        "retry-base-delay": "first backoff delay, duration (default 500ms; doubles to 20s, with jitter)",
        "exclude-old-transactions": "true to send exclude-old-transactions to verifyReceipt (default false)",
        "history-days": "days the first notification-history sweep goes back (default 30, at most 180)",
        "shared-secret": "verifyReceipt password (secret; prefer IAP_RECON_SHARED_SECRET)",
        "api-key-file": "App Store Server API .p8 key file",
        "api-key-id": "App Store Server API key id",
        "issuer-id": "App Store Server API issuer id",
    ].merging(DatabaseSourceConfig.fileKeys) { own, _ in own }

    public var version: Int?
    public var out: String?
    public var timezone: String?
    public var salesReportTimezone: String?
    public var failOn: Severity?
    public var deliveryGraceMillis: Int64?
    public var finishGraceMillis: Int64?
    public var pendingLimitMillis: Int64?
    public var bundleIDs: [String]?
    public var ledgerStart: String?
    public var trustedRoots: [String]?
    public var verifyReceiptURL: String?
    public var sandboxVerifyReceiptURL: String?
    public var serverAPIURL: String?
    public var sandboxServerAPIURL: String?
    public var concurrency: Int?
    public var requestTimeoutMillis: Int64?
    public var retryAttempts: Int?
    public var retryBudgetMillis: Int64?
    public var retryBaseDelayMillis: Int64?
    public var excludeOldTransactions: Bool?
    public var historyDays: Int?
    public var sharedSecret: String?
    public var apiKeyFile: String?
    public var apiKeyID: String?
    public var issuerID: String?
    /// `source-db` and the queries (SPEC §1.7).
    public var databaseSource = DatabaseSourceConfig()

    /// A value the file holds that is not what its key takes.
    struct Problem: Error {
        var key: String
        var value: String
        var expected: String
    }

    /// A key the format does not have.
    struct UnknownKey: Error {
        var key: String
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        for key in c.allKeys.map(\.stringValue).sorted() where Self.keys[key] == nil { throw UnknownKey(key: key) }

        /// A string; a number is taken as its text.
        func text(_ name: String) throws -> String? {
            let key = Key(stringValue: name)
            guard c.contains(key) else { return nil }
            if let value = try? c.decode(String.self, forKey: key) { return value }
            if let value = try? c.decode(Int64.self, forKey: key) { return String(value) }
            if let value = try? c.decode(Double.self, forKey: key) { return String(value) }
            throw Problem(key: name, value: Self.shown(c, key), expected: "a string")
        }
        func list(_ name: String) throws -> [String]? {
            let key = Key(stringValue: name)
            guard c.contains(key) else { return nil }
            if let value = try? c.decode(String.self, forKey: key) { return [value] }
            if let value = try? c.decode([String].self, forKey: key) { return value }
            throw Problem(key: name, value: Self.shown(c, key), expected: "a string or a list of strings")
        }
        func duration(_ name: String) throws -> Int64? {
            guard let value = try text(name) else { return nil }
            guard let millis = DurationText.millis(value) else {
                throw Problem(key: name, value: value, expected: "a duration like 90m, 1h, 2d")
            }
            return millis
        }
        func number(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
            guard let value = try text(name) else { return nil }
            guard let n = Int(value), range.contains(n) else {
                throw Problem(
                    key: name, value: value,
                    expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return n
        }

        if let value = try text("version") {
            guard Int(value) == Self.currentVersion else {
                throw Problem(
                    key: "version", value: value, expected: "\(Self.currentVersion), the format this program reads")
            }
            version = Self.currentVersion
        }
        out = try text("out")
        timezone = try text("timezone")
        salesReportTimezone = try text("sales-report-timezone")
        if let value = try text("fail-on") {
            guard let severity = Severity(rawValue: value.lowercased()) else {
                throw Problem(key: "fail-on", value: value, expected: "critical, high, medium or low")
            }
            failOn = severity
        }
        deliveryGraceMillis = try duration("delivery-grace")
        finishGraceMillis = try duration("finish-grace")
        pendingLimitMillis = try duration("pending-limit")
        requestTimeoutMillis = try duration("request-timeout")
        retryBudgetMillis = try duration("retry-budget")
        retryBaseDelayMillis = try duration("retry-base-delay")
        retryAttempts = try number("retry-attempts", in: 1...20)
        concurrency = try number("concurrency", in: 1...256)
        bundleIDs = try list("bundle-id")
        if let value = try text("ledger-start") {
            guard ReconConfig.ledgerStartMillis(value) != nil else {
                throw Problem(key: "ledger-start", value: value, expected: ReconConfig.ledgerStartExpected)
            }
            ledgerStart = value
        }
        trustedRoots = try list("trusted-root")
        verifyReceiptURL = try text("verify-receipt-url")
        sandboxVerifyReceiptURL = try text("sandbox-verify-receipt-url")
        serverAPIURL = try text("server-api-url")
        sandboxServerAPIURL = try text("sandbox-server-api-url")
        let exclude = Key(stringValue: "exclude-old-transactions")
        if c.contains(exclude) {
            guard let flag = try? c.decode(Bool.self, forKey: exclude) else {
                throw Problem(key: exclude.stringValue, value: Self.shown(c, exclude), expected: "true or false")
            }
            excludeOldTransactions = flag
        }
        historyDays = try number("history-days", in: 1...180)
        sharedSecret = try text("shared-secret")
        apiKeyFile = try text("api-key-file")
        apiKeyID = try text("api-key-id")
        issuerID = try text("issuer-id")
        databaseSource = try DatabaseSourceConfig(configFile: text)
    }

    /// What kind of JSON value a key holds, for an error line (never the value: it may be a secret).
    private static func shown(_ c: KeyedDecodingContainer<Key>, _ key: Key) -> String {
        if (try? c.decodeNil(forKey: key)) == true { return "null" }
        if (try? c.decode(Bool.self, forKey: key)) != nil { return "a boolean" }
        if (try? c.decode([String: Int].self, forKey: key)) != nil { return "an object" }
        if (try? c.decode([Int].self, forKey: key)) != nil { return "a list of numbers" }
        return "a value of another type"
    }

    /// Reads and checks the file at `path`.
    ///
    /// - Throws: ``ConfigError`` naming the file, and the key when one is at fault.
    public static func load(_ path: String) throws(ConfigError) -> ConfigFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? "no such file or not readable"
            throw .unreadableFile(path: path, reason: reason)
        }
        do {
            return try JSONDecoder().decode(ConfigFile.self, from: data)
        } catch let problem as Problem {
            throw .invalid(key: "\(problem.key) in \(path)", value: problem.value, expected: problem.expected)
        } catch let unknown as UnknownKey {
            throw .unknownKey(file: path, key: unknown.key)
        } catch {
            throw .unreadableFile(path: path, reason: "not a JSON object")
        }
    }

    /// Sets every key the file holds on `config`.
    public func apply(to config: inout ReconConfig) {
        if let out { config.outputDirectory = out }
        if let timezone { config.timeZone = timezone }
        if let salesReportTimezone { config.salesReportTimeZone = salesReportTimezone }
        if let failOn { config.failOn = failOn }
        if let deliveryGraceMillis { config.deliveryGraceMillis = deliveryGraceMillis }
        if let finishGraceMillis { config.finishGraceMillis = finishGraceMillis }
        if let pendingLimitMillis { config.pendingLimitMillis = pendingLimitMillis }
        if let requestTimeoutMillis { config.requestTimeoutMillis = requestTimeoutMillis }
        if let retryBudgetMillis { config.retryBudgetMillis = retryBudgetMillis }
        if let retryBaseDelayMillis { config.retryBaseDelayMillis = retryBaseDelayMillis }
        if let retryAttempts { config.retryAttempts = retryAttempts }
        if let bundleIDs { config.bundleIDs = bundleIDs }
        if let ledgerStart { config.ledgerStart = ledgerStart }
        if let trustedRoots { config.trustedRoots = trustedRoots }
        if let verifyReceiptURL { config.verifyReceiptURL = verifyReceiptURL }
        if let sandboxVerifyReceiptURL { config.sandboxVerifyReceiptURL = sandboxVerifyReceiptURL }
        if let serverAPIURL { config.serverAPIURL = serverAPIURL }
        if let sandboxServerAPIURL { config.sandboxServerAPIURL = sandboxServerAPIURL }
        if let concurrency { config.concurrency = concurrency }
        if let excludeOldTransactions { config.excludeOldTransactions = excludeOldTransactions }
        if let historyDays { config.historyDays = historyDays }
        if let sharedSecret { config.sharedSecret = sharedSecret }
        if let apiKeyFile { config.apiKeyFile = apiKeyFile }
        if let apiKeyID { config.apiKeyID = apiKeyID }
        if let issuerID { config.issuerID = issuerID }
        config.databaseSource.merge(databaseSource)
    }
}

extension ReconConfig {
    /// Every key a config file may hold (``ConfigFile/keys``).
    public static var fileKeys: [String: String] { ConfigFile.keys }

    /// Applies a JSON config file (``ConfigFile``).
    ///
    /// - Throws: ``ConfigError`` naming the file and the key.
    public mutating func apply(configFile path: String) throws(ConfigError) {
        try ConfigFile.load(path).apply(to: &self)
    }
}
