import Foundation
import ReconFindings
import ReconModel
import ReconStorage

/// Why an XLSX file could not be written; every message is one line naming the file and the
/// sheet, cell or step.
public enum XLSXError: LocalizedError, Sendable, Equatable {
    /// A sheet name Excel would reject (too long, a forbidden character, a duplicate, ...).
    case invalidSheetName(path: String, name: String, reason: String)
    /// A value of the document cannot be represented: `location` names the sheet and cell,
    /// column, header row or chart.
    case invalidDocument(path: String, location: String, reason: String)
    /// libxlsxwriter returned an error code (`lxw_error`); `message` is its `lxw_strerror` text.
    case library(path: String, location: String, code: UInt32, message: String)
    /// A file-system step around the workbook failed (temporary file, sync, rename).
    case fileSystem(path: String, operation: String, reason: String)

    /// The one-line message: `cannot write XLSX file '<path>': <where>: <why>`.
    public var errorDescription: String? {
        let text: String
        switch self {
        case .invalidSheetName(let path, let name, let reason):
            text = "cannot write XLSX file '\(path)': invalid sheet name '\(name)': \(reason)"
        case .invalidDocument(let path, let location, let reason):
            text = "cannot write XLSX file '\(path)': \(location): \(reason)"
        case .library(let path, let location, let code, let message):
            text = "cannot write XLSX file '\(path)': \(location): libxlsxwriter error \(code): \(message)"
        case .fileSystem(let path, let operation, let reason):
            text = "cannot write XLSX file '\(path)': \(operation): \(reason)"
        }
        return XLSXError.oneLine(text)
    }

    /// Replaces line breaks and other control characters so a message stays on one line.
    package static func oneLine(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }
}

extension XLSXError {
    /// The XLSX error of a failed atomic write: the file, the step and the system's reason.
    package init(_ failure: AtomicFileError) {
        self = .fileSystem(path: failure.path, operation: failure.operation, reason: failure.reason)
    }
}
