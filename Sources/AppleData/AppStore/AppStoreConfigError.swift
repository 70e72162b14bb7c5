import Foundation
import ReconModel

/// A setup mistake in the Apple clients' configuration: the only thing they throw.
public enum AppStoreConfigError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// A URL setting is not an absolute `http`/`https` URL.
    case invalidURL(setting: String, value: String)
    /// A numeric or other setting is out of range.
    case invalidSetting(setting: String, reason: String)
    /// The App Store Server API key is not a PKCS#8 P-256 private key (the contents are never shown).
    case invalidPrivateKey(source: String)
    /// A key file could not be read.
    case unreadableKeyFile(path: String)

    public var description: String {
        switch self {
        case .invalidURL(let setting, let value): return "Setting \(setting): '\(value)' is not an http(s) URL."
        case .invalidSetting(let setting, let reason): return "Setting \(setting) \(reason)."
        case .invalidPrivateKey(let source):
            return "The App Store Server API key from \(source) is not a PKCS#8 P-256 (.p8) private key."
        case .unreadableKeyFile(let path): return "Cannot read the App Store Server API key file \(path)."
        }
    }

    public var errorDescription: String? { description }
}
