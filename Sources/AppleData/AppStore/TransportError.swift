import ReconModel

/// Why a request got no HTTP answer at all.
///
/// Every case is transient for the retry policy.
public enum TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No complete answer before the per-request timeout.
    case timedOut
    /// The server refused the connection.
    case connectionRefused
    /// The connection was reset or closed before a complete answer.
    case connectionReset
    /// Any other network failure, in one line (never containing a request or response body).
    case connectionFailed(String)
    /// The answer was larger than the transport accepts.
    case responseTooLarge(limit: Int)

    public var description: String {
        switch self {
        case .timedOut: return "timed out"
        case .connectionRefused: return "connection refused"
        case .connectionReset: return "connection reset"
        case .connectionFailed(let reason): return "connection failed: \(reason)"
        case .responseTooLarge(let limit): return "response larger than \(limit) bytes"
        }
    }
}
