import Foundation

extension ReconConfig {
    /// Every key a config file may hold, with what it sets. Keys are the long option names.
    public static let fileKeys: [String: String] = [
        "version": "config file format version (1)",
        "out": "report folder (default reports)",
        "timezone": "IANA time zone for calendar days (default UTC)",
        "sales-report-timezone": "IANA time zone of the Apple sales reports' days (default America/Los_Angeles)",
        "fail-on": "exit 3 at or above this severity (default: never)",
        "delivery-grace": "duration (default 1h)",
        "finish-grace": "duration (default 24h)",
        "pending-limit": "duration (default 24h)",
        "bundle-id": "list of the app's bundle ids",
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
        "shared-secret": "verifyReceipt password (secret; prefer IAP_RECON_SHARED_SECRET)",
        "api-key-file": "App Store Server API .p8 key file",
        "api-key-id": "App Store Server API key id",
        "issuer-id": "App Store Server API issuer id",
    ]

    /// Applies a JSON config file: an object whose keys are ``fileKeys``.
    ///
    /// - Throws: ``ConfigError`` naming the file and the key.
    public mutating func apply(configFile path: String) throws(ConfigError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadableFile(path: path, reason: (error as NSError).localizedFailureReason ?? "no such file or not readable")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data), let dictionary = object as? [String: Any] else {
            throw .unreadableFile(path: path, reason: "not a JSON object")
        }
        func string(_ key: String) throws(ConfigError) -> String? {
            guard let value = dictionary[key] else { return nil }
            if let text = value as? String { return text }
            if let number = value as? NSNumber { return number.stringValue }
            throw .invalid(key: "\(key) in \(path)", value: "\(type(of: value))", expected: "a string")
        }
        func list(_ key: String) throws(ConfigError) -> [String]? {
            guard let value = dictionary[key] else { return nil }
            if let text = value as? String { return [text] }
            if let items = value as? [String] { return items }
            throw .invalid(key: "\(key) in \(path)", value: "\(type(of: value))", expected: "a string or a list of strings")
        }
        func duration(_ key: String) throws(ConfigError) -> Int64? {
            guard let text = try string(key) else { return nil }
            guard let ms = DurationText.millis(text) else {
                throw .invalid(key: "\(key) in \(path)", value: text, expected: "a duration like 90m, 1h, 2d")
            }
            return ms
        }
        for key in dictionary.keys.sorted() where Self.fileKeys[key] == nil {
            throw .unknownKey(file: path, key: key)
        }
        if let v = try string("out") { outputDirectory = v }
        if let v = try string("timezone") { timeZone = v }
        if let v = try string("sales-report-timezone") { salesReportTimeZone = v }
        if let v = try string("fail-on") {
            guard let severity = Severity(rawValue: v.lowercased()) else {
                throw .invalid(key: "fail-on in \(path)", value: v, expected: "critical, high, medium or low")
            }
            failOn = severity
        }
        if let v = try duration("delivery-grace") { deliveryGraceMillis = v }
        if let v = try duration("finish-grace") { finishGraceMillis = v }
        if let v = try duration("pending-limit") { pendingLimitMillis = v }
        if let v = try duration("request-timeout") { requestTimeoutMillis = v }
        if let v = try duration("retry-budget") { retryBudgetMillis = v }
        if let v = try duration("retry-base-delay") { retryBaseDelayMillis = v }
        if let v = try string("retry-attempts") {
            guard let n = Int(v), n >= 1, n <= 20 else {
                throw .invalid(key: "retry-attempts in \(path)", value: v, expected: "a whole number from 1 to 20")
            }
            retryAttempts = n
        }
        if let v = try list("bundle-id") { bundleIDs = v }
        if let v = try list("trusted-root") { trustedRoots = v }
        if let v = try string("verify-receipt-url") { verifyReceiptURL = v }
        if let v = try string("sandbox-verify-receipt-url") { sandboxVerifyReceiptURL = v }
        if let v = try string("server-api-url") { serverAPIURL = v }
        if let v = try string("sandbox-server-api-url") { sandboxServerAPIURL = v }
        if let v = try string("concurrency") {
            guard let n = Int(v), n >= 1, n <= 256 else {
                throw .invalid(key: "concurrency in \(path)", value: v, expected: "a whole number from 1 to 256")
            }
            concurrency = n
        }
        if let value = dictionary["exclude-old-transactions"] {
            guard let flag = value as? Bool else {
                throw .invalid(key: "exclude-old-transactions in \(path)", value: "\(value)", expected: "true or false")
            }
            excludeOldTransactions = flag
        }
        if let v = try string("shared-secret") { sharedSecret = v }
        if let v = try string("api-key-file") { apiKeyFile = v }
        if let v = try string("api-key-id") { apiKeyID = v }
        if let v = try string("issuer-id") { issuerID = v }
    }
}
