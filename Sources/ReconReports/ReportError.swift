import Foundation
import ReconFindings
import ReconModel
import ReconStorage

/// Why a report could not be written.
///
/// The run cannot complete after one of these.
public enum ReportError: LocalizedError, Sendable, Equatable {
    case cannotCreateDirectory(path: String, reason: String)
    case cannotWrite(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .cannotCreateDirectory(let path, let reason): return "cannot create report folder '\(path)': \(reason)"
        case .cannotWrite(let path, let reason): return "cannot write report '\(path)': \(reason)"
        }
    }
}

extension ReportError {
    /// The report error of a failed atomic write: the file and the system's reason.
    package init(_ failure: AtomicFileError) {
        self = .cannotWrite(path: failure.path, reason: failure.reason)
    }
}
