import AppleData
import Foundation
import ReconModel

/// The backend's PostgreSQL to read inputs from (CONTRACT §1.7), checked: where it is, who logs in,
/// how TLS is used, and one query per input.
///
/// The password is a secret: ``name`` and ``description`` never hold it.
public struct DatabaseSource: Sendable {
    /// How TLS is used, as libpq's `sslmode` says.
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, unverified; plain TCP otherwise (libpq's default).
        case prefer
        /// TLS or no connection; the certificate is not checked.
        case require
        /// TLS with a certificate that chains to a trusted root; the host name is not checked.
        case verifyCA = "verify-ca"
        /// TLS with a certificate that chains to a trusted root and names the host.
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var user: String
    /// Secret.
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// PEM file of the roots to trust (`sslrootcert=`); nil: the system's trust store.
    public var rootCertificates: String?
    /// The SQL of each input, in the order they are read.
    public var queries: [(kind: InputKind, sql: String)] = []

    /// `postgresql://HOST:PORT/DB`: how messages and rejected rows name the server.
    public var name: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgresql://\(shownHost):\(port)/\(database)"
    }

    /// The source of one query's rows: `postgresql://HOST:PORT/DB transactions-query`.
    public func sourceName(_ kind: InputKind) -> String { "\(name) \(Self.optionName(kind))" }

    /// `transactions-query`: the option (and config key) of an input's query.
    package static func optionName(_ kind: InputKind) -> String { "\(kind.rawValue)-query" }

    /// A source read from its URL; the password comes from the URL, else from `PGPASSWORD`, else from the password
    /// file (``PGPass``).
    ///
    /// - Throws: ``ConfigError`` for a URL that is not `postgresql://…` with a host and a user, or
    ///   an unknown `sslmode`.
    public init(url: String, environment: [String: String], key: String = "source-db") throws(ConfigError) {
        func invalid(_ expected: String) -> ConfigError {
            .invalid(key: key, value: Self.redacted(url), expected: expected)
        }
        let format = "postgresql://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=disable|require|verify-full]"
        guard let components = URLComponents(string: url),
            components.scheme == "postgresql" || components.scheme == "postgres"
        else { throw invalid(format) }
        guard let host = components.host, !host.isEmpty else { throw invalid(format + " (no host)") }
        guard let user = components.user, !user.isEmpty else { throw invalid(format + " (no user)") }
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? 5432
        self.user = user
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 } ?? user
        if let password = components.password, !password.isEmpty {
            self.password = password
        } else if let password = environment["PGPASSWORD"], !password.isEmpty {
            self.password = password
        } else {
            password = PGPass.password(
                host: self.host, port: port, database: database, user: user, environment: environment)
        }
        tls = .prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = TLSMode(rawValue: item.value ?? "") else {
                    throw invalid("sslmode disable, prefer, require, verify-ca or verify-full")
                }
                tls = mode
            case "sslrootcert":
                guard let file = item.value, !file.isEmpty else { throw invalid("sslrootcert=FILE (PEM)") }
                rootCertificates = file
            case "connect_timeout", "application_name": continue
            default: throw invalid("sslmode and sslrootcert as the only URL parameters, not '\(item.name)'")
            }
        }
    }

    /// Whether `text` is a `postgresql://` (or `postgres://`) URL rather than a file's path.
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// `url` with its password, if any, replaced by `***`.
    public static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? "postgresql://(unreadable URL)"
    }
}

extension DatabaseSource: CustomStringConvertible {
    /// The server, the user and the TLS mode: never the password.
    public var description: String {
        "DatabaseSource(\(name), user: \(user), sslmode: \(tls.rawValue), password: \(password == nil ? "unset" : "<redacted>"))"
    }
}
