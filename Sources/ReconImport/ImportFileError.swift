import AppleData
import Foundation
import ReconModel
import ReconStorage

/// Why a file could not be read at all.
///
/// Per-row problems are rejections, not these.
public enum ImportFileError: LocalizedError, Sendable, Equatable {
    case cannotOpen(path: String, reason: String)
    case readFailed(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open '\(path)': \(reason)"
        case .readFailed(let path, let reason): return "cannot read '\(path)': \(reason)"
        }
    }
}
