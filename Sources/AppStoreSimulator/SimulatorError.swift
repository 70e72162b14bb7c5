import Foundation

/// A simulator setup problem: the only thing the simulator throws.
public enum SimulatorError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// The seed file is unreadable or malformed.
    case seedFile(path: String, reason: String)
    /// The seed is inconsistent (unknown ids, duplicates, bad key).
    case invalidSeed(String)
    /// The server could not start (port in use, ...).
    case startFailed(String)

    public var description: String {
        switch self {
        case .seedFile(let path, let reason): return "Seed file \(path): \(reason)."
        case .invalidSeed(let reason): return "Invalid simulator seed: \(reason)."
        case .startFailed(let reason): return "The App Store simulator could not start: \(reason)."
        }
    }

    public var errorDescription: String? { description }
}
