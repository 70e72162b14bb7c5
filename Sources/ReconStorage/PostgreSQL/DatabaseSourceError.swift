import AppleData
import Foundation
import PostgresNIO
import ReconModel

/// Why the backend's PostgreSQL could not be read: one line naming the server (never the
/// password) and PostgreSQL's own message.
public enum DatabaseSourceError: LocalizedError, Sendable, Equatable {
    /// The server could not be reached, refused the login, or refused TLS.
    case connect(server: String, message: String)
    /// A query failed (a syntax error, a missing table, a write refused by the read-only
    /// transaction), before its first row or mid-stream.
    case query(source: String, message: String)
    /// The connection was lost while rows were read.
    case lost(server: String, message: String)

    public var errorDescription: String? {
        switch self {
        case .connect(let server, let message): return "cannot read \(server): \(message)"
        case .query(let source, let message): return "\(source) failed: \(message)"
        case .lost(let server, let message):
            return "lost \(server) while reading: \(message); nothing read is counted twice: run the import again"
        }
    }

    /// PostgreSQL's message for `error`, in one line: the server's own text (and SQLSTATE) when it
    /// sent one, else what went wrong on the way.
    package static func message(_ error: any Error, tls: DatabaseSource.TLSMode) -> String {
        guard let error = error as? PSQLError else { return oneLine(String(describing: error)) }
        if let info = error.serverInfo, let text = info[.message] {
            let state = info[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            return oneLine(text + state)
        }
        switch error.code {
        case .sslUnsupported:
            return "the server does not accept TLS, and sslmode=\(tls.rawValue) asks for it"
        case .serverClosedConnection: return "the server closed the connection"
        case .unsupportedAuthMechanism, .authMechanismRequiresPassword:
            return "the server asks for a password: put it in PGPASSWORD or ~/.pgpass (mode 0600)"
        default: break
        }
        if let underlying = error.underlying { return oneLine(String(describing: underlying)) }
        return oneLine(error.code.description)
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// Whether `error` is the connection going away (as opposed to the server refusing a query).
    package static func isConnectionLoss(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return true }
        if let info = error.serverInfo {
            // The server answered: the connection is lost only when it says it ends it (a FATAL or PANIC message, or
            // 57P01-57P03: shut down, cannot accept connections). Any other error is the server's refusal of the
            // statement, on a connection that stays open, whatever its SQLSTATE: 08P01 for a parameter unbound, or
            // 08001 from a Citus coordinator that could not reach a worker.
            let state = info[.sqlState] ?? ""
            let severity = info[.severity] ?? ""
            return state.hasPrefix("57P") || severity == "FATAL" || severity == "PANIC"
        }
        return error.code != .server
    }
}
