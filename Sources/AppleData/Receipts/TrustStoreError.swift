import Foundation
import ReconModel

/// A trusted-root file that cannot be used.
public struct TrustStoreError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// What is wrong with the file.
    public enum Problem: Sendable, Hashable {
        /// The file cannot be opened or read (the system's reason).
        case unreadable(String)
        /// The file was read but holds no usable certificate.
        case notACertificate(String)
    }

    /// The path as given.
    public var path: String
    /// What went wrong.
    public var problem: Problem

    /// An error for `path`.
    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    public var description: String {
        switch problem {
        case .unreadable(let reason):
            return "cannot read trusted root file '\(path)': \(reason)"
        case .notACertificate(let reason):
            return "trusted root file '\(path)' is not a DER or PEM certificate: \(reason)"
        }
    }

    public var errorDescription: String? { description }
}
