import Foundation

/// A configuration problem: one sentence naming the key or file.
public enum ConfigError: LocalizedError, Sendable, Equatable {
    case invalid(key: String, value: String, expected: String)
    case unreadableFile(path: String, reason: String)
    case unknownKey(file: String, key: String)
    /// Neither `--db` nor the config file's `db` names the store.
    case noStore(configFile: String)

    public var errorDescription: String? {
        switch self {
        case .invalid(let key, let value, let expected):
            return "invalid \(key) '\(value.prefix(60))': expected \(expected)"
        case .unreadableFile(let path, let reason): return "cannot read config file '\(path)': \(reason)"
        case .unknownKey(let file, let key): return "unknown key '\(key)' in config file '\(file)'"
        case .noStore(let file): return "no store: give --db, or \"db\" in config file '\(file)'"
        }
    }
}
