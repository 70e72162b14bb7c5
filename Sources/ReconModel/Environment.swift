/// The App Store environment a purchase happened in, as stated by some source.
///
/// The raw string is kept so that a value Apple adds later still round-trips; ``isProduction``
/// is the only question revenue asks of it.
public enum StoreEnvironment: Sendable, Hashable, Comparable, CustomStringConvertible {
    case production
    case sandbox
    case xcode
    case localTesting
    case unknown(String)

    /// Parses Apple's spellings (`Production`, `Sandbox`, `Xcode`, `LocalTesting`, and the
    /// lowercase `production`/`sandbox` some payloads use); anything else is kept raw.
    public init(raw: String) {
        switch raw.lowercased() {
        case "production", "prod": self = .production
        case "sandbox": self = .sandbox
        case "xcode": self = .xcode
        case "localtesting": self = .localTesting
        default: self = .unknown(raw)
        }
    }

    /// The canonical spelling, as Apple writes it.
    public var rawValue: String {
        switch self {
        case .production: return "Production"
        case .sandbox: return "Sandbox"
        case .xcode: return "Xcode"
        case .localTesting: return "LocalTesting"
        case .unknown(let raw): return raw
        }
    }

    /// Only a real App Store purchase counts as revenue.
    public var isProduction: Bool { self == .production }

    public var description: String { rawValue }
}

extension StoreEnvironment {
    /// Whether an environment is one of Apple's test environments (Sandbox, Xcode, LocalTesting).
    ///
    /// An unrecognised raw value is neither Production nor a test environment: it proves nothing.
    package static func isTest(_ environment: StoreEnvironment?) -> Bool {
        switch environment {
        case .sandbox, .xcode, .localTesting: return true
        default: return false
        }
    }
}
