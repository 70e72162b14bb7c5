/// Why an ``AtomicFile`` could not be written: the step that failed and the system's reason.
///
/// Callers turn it into their own one-line error naming the file (``ReportError``, ``XLSXError``).
struct AtomicFileError: Error, Sendable, Equatable {
    /// The final path of the file.
    var path: String
    /// The step that failed, such as "creating a temporary file".
    var operation: String
    /// The system's reason (`strerror`).
    var reason: String
}
