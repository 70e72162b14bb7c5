import Foundation

/// Why `serve` will not start.
public enum ServeError: LocalizedError, Sendable, Equatable {
    /// A non-loopback address without `IAP_RECON_SERVE_TOKEN`.
    case tokenRequired(host: String)
    /// A token too short to guard customer data.
    case weakToken(minimum: Int)
    /// The server could not start (e.g. the port is taken).
    case startFailed(String)

    public var errorDescription: String? {
        switch self {
        case .tokenRequired(let host):
            return "refusing to serve on \(host) without \(SupportServerSettings.tokenVariable): "
                + "set it, or listen on 127.0.0.1"
        case .weakToken(let minimum):
            return "\(SupportServerSettings.tokenVariable) must be at least \(minimum) characters"
        case .startFailed(let reason):
            return "the support web view could not start: \(reason)"
        }
    }
}
