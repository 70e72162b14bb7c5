import ReconFindings
import ReconModel
import ReconStorage

/// Why an ``AtomicFile`` could not be written: the step that failed and the system's reason.
///
/// Callers turn it into their own one-line error naming the file (``ReportError``, ``XLSXError``).
package struct AtomicFileError: Error, Sendable, Equatable {
    /// The final path of the file.
    package var path: String
    /// The step that failed, such as "creating a temporary file".
    package var operation: String
    /// The system's reason (`strerror`).
    package var reason: String
}
