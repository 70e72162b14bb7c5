import Foundation
import ReconModel

/// Where Apple's endpoints are, how long one request may take, and how many may run at once.
///
/// Defaults are Apple's real hosts; tests and the demo point every URL at the simulator on
/// 127.0.0.1.
public struct AppStoreEndpoints: Sendable, Hashable {
    /// Production `verifyReceipt` URL.
    public var verifyReceiptProduction: URL
    /// Sandbox `verifyReceipt` URL.
    public var verifyReceiptSandbox: URL
    /// Production App Store Server API base URL (paths `/inApps/...` are appended).
    public var serverAPIProduction: URL
    /// Sandbox App Store Server API base URL.
    public var serverAPISandbox: URL
    /// The most one HTTP request may take (connect, send, answer).
    public var requestTimeout: Duration
    /// The most requests in flight at once, per client.
    public var concurrency: Int

    /// Apple's `https://buy.itunes.apple.com/verifyReceipt`.
    public static let appleVerifyReceiptProduction = Self.fixedURL("https://buy.itunes.apple.com/verifyReceipt")
    /// Apple's `https://sandbox.itunes.apple.com/verifyReceipt`.
    public static let appleVerifyReceiptSandbox = Self.fixedURL("https://sandbox.itunes.apple.com/verifyReceipt")
    /// Apple's `https://api.storekit.itunes.apple.com`.
    public static let appleServerAPIProduction = Self.fixedURL("https://api.storekit.itunes.apple.com")
    /// Apple's `https://api.storekit-sandbox.itunes.apple.com`.
    public static let appleServerAPISandbox = Self.fixedURL("https://api.storekit-sandbox.itunes.apple.com")

    /// Apple's real endpoints with the default timeout and concurrency: the defaults of the `*-url`,
    /// `request-timeout` and `concurrency` settings (``ReconConfig`` reads them from here).
    public static let apple = AppStoreEndpoints()

    /// Creates endpoints; every URL defaults to Apple's.
    ///
    /// The default timeout and concurrency are those of CONTRACT §2, written here alone: ``apple``, `parse` and
    /// ``ReconConfig`` take them from here.
    public init(
        verifyReceiptProduction: URL = AppStoreEndpoints.appleVerifyReceiptProduction,
        verifyReceiptSandbox: URL = AppStoreEndpoints.appleVerifyReceiptSandbox,
        serverAPIProduction: URL = AppStoreEndpoints.appleServerAPIProduction,
        serverAPISandbox: URL = AppStoreEndpoints.appleServerAPISandbox,
        requestTimeout: Duration = .seconds(15),
        concurrency: Int = 8
    ) {
        self.verifyReceiptProduction = verifyReceiptProduction
        self.verifyReceiptSandbox = verifyReceiptSandbox
        self.serverAPIProduction = serverAPIProduction
        self.serverAPISandbox = serverAPISandbox
        self.requestTimeout = requestTimeout
        self.concurrency = concurrency
    }

    /// Creates endpoints from URL strings as given on the command line or in a config file.
    ///
    /// What is not given (nil) is ``apple``'s.
    ///
    /// - Throws: ``AppStoreConfigError/invalidURL(setting:value:)`` for a string that is not an
    ///   absolute `http`/`https` URL.
    public static func parse(
        verifyReceiptProduction: String? = nil, verifyReceiptSandbox: String? = nil,
        serverAPIProduction: String? = nil, serverAPISandbox: String? = nil,
        requestTimeout: Duration? = nil, concurrency: Int? = nil
    ) throws(AppStoreConfigError) -> AppStoreEndpoints {
        var endpoints = AppStoreEndpoints.apple
        if let requestTimeout { endpoints.requestTimeout = requestTimeout }
        if let concurrency { endpoints.concurrency = concurrency }
        if let value = verifyReceiptProduction {
            endpoints.verifyReceiptProduction = try checkedURL(value, setting: "verify-receipt-url")
        }
        if let value = verifyReceiptSandbox {
            endpoints.verifyReceiptSandbox = try checkedURL(value, setting: "sandbox-verify-receipt-url")
        }
        if let value = serverAPIProduction {
            endpoints.serverAPIProduction = try checkedURL(value, setting: "server-api-url")
        }
        if let value = serverAPISandbox {
            endpoints.serverAPISandbox = try checkedURL(value, setting: "sandbox-server-api-url")
        }
        try endpoints.validate()
        return endpoints
    }

    /// Checks every URL is absolute `http`/`https`, the timeout positive and concurrency ≥ 1.
    ///
    /// - Throws: ``AppStoreConfigError`` naming the first bad setting.
    public func validate() throws(AppStoreConfigError) {
        for (setting, url) in [
            ("verify-receipt-url", verifyReceiptProduction), ("sandbox-verify-receipt-url", verifyReceiptSandbox),
            ("server-api-url", serverAPIProduction), ("sandbox-server-api-url", serverAPISandbox),
        ] {
            _ = try Self.checkedURL(url.absoluteString, setting: setting)
        }
        guard requestTimeout > .zero else {
            throw .invalidSetting(setting: "request-timeout", reason: "must be positive")
        }
        guard concurrency >= 1 else { throw .invalidSetting(setting: "concurrency", reason: "must be at least 1") }
    }

    /// The `verifyReceipt` URL of `environment` (sandbox for anything but production).
    public func verifyReceiptURL(for environment: StoreEnvironment) -> URL {
        environment == .production ? verifyReceiptProduction : verifyReceiptSandbox
    }

    /// The Server API base URL of `environment` (sandbox for anything but production).
    public func serverAPIBase(for environment: StoreEnvironment) -> URL {
        environment == .production ? serverAPIProduction : serverAPISandbox
    }

    package static func checkedURL(_ value: String, setting: String) throws(AppStoreConfigError) -> URL {
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { throw .invalidURL(setting: setting, value: value) }
        return url
    }

    private static func fixedURL(_ text: String) -> URL {
        // The literals above are valid URLs; the fallback only satisfies the type checker.
        URL(string: text) ?? URL(fileURLWithPath: "/")
    }
}
