import AppleData
import Foundation
import ReconFindings
import ReconImport
import ReconLookup
import ReconModel
import ReconReports
import ReconStorage
import ReconVerify

/// The backend's PostgreSQL as an input (CONTRACT §1.7), as given: `--source-db URL` and one query per
/// input, by flags or the config file's keys of the same names (rows of ``ReconConfig/keys``).
///
/// Nothing reads these raw values but ``validated(environment:)``, which turns them into a
/// ``DatabaseSource``. The URL may hold a password: ``description`` never shows it.
public struct DatabaseSourceConfig: Sendable, Hashable {
    /// `postgresql://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=…&sslrootcert=…]`.
    public var url: String?
    /// SQL text, or `@FILE` naming a file that holds it.
    public var transactionsQuery: String?
    public var receiptsQuery: String?
    public var notificationsQuery: String?
    public var productsQuery: String?
    public var entitlementsQuery: String?
    public var consentsQuery: String?

    public init() {}

    /// Whether anything is set.
    public var isEmpty: Bool { self == DatabaseSourceConfig() }

    /// The queries as given, by input, in the order an import reads them (the catalog first,
    /// then receipts, the ledger, entitlements, notifications: as files are).
    package var queries: [(kind: InputKind, text: String)] {
        [
            (.products, productsQuery), (.receipts, receiptsQuery), (.transactions, transactionsQuery),
            (.entitlements, entitlementsQuery), (.consents, consentsQuery), (.notifications, notificationsQuery),
        ].compactMap { kind, text in text.map { (kind, $0) } }
    }

    /// The source to read, or nil when none is configured.
    ///
    /// - Parameter environment: where `PGPASSWORD` is read when the URL holds no password.
    /// - Throws: ``ConfigError`` naming the key: a bad URL, a query without `source-db` or the
    ///   reverse, a query file that cannot be read, an empty query.
    public func validated(environment: [String: String]) throws(ConfigError) -> DatabaseSource? {
        let queries = self.queries
        guard let url else {
            if let first = queries.first {
                throw .invalid(
                    key: DatabaseSource.optionName(first.kind), value: first.text,
                    expected: "--source-db too: the database the query reads")
            }
            return nil
        }
        guard !queries.isEmpty else {
            throw .invalid(
                key: "source-db", value: DatabaseSource.redacted(url),
                expected:
                    "at least one of --transactions-query, --receipts-query, --notifications-query, --products-query, "
                    + "--entitlements-query, --consents-query")
        }
        var source = try DatabaseSource(url: url, environment: environment)
        for (kind, text) in queries {
            source.queries.append((kind, try Self.sql(text, key: DatabaseSource.optionName(kind))))
        }
        return source
    }

    /// The SQL of a query value: the text itself, or the contents of the file `@FILE` names.
    private static func sql(_ value: String, key: String) throws(ConfigError) -> String {
        var text = value
        if value.hasPrefix("@") {
            let path = String(value.dropFirst())
            guard let contents = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw .invalid(key: key, value: value, expected: "a readable UTF-8 file holding the SQL")
            }
            text = contents
        }
        // A trailing semicolon is how SQL files end; the query is used inside a cursor.
        var trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        while trimmed.hasSuffix(";") {
            trimmed = String(trimmed.dropLast()).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard !trimmed.isEmpty else { throw .invalid(key: key, value: value, expected: "a SELECT query") }
        return trimmed
    }
}

extension DatabaseSourceConfig: CustomStringConvertible {
    /// The URL without its password, and which queries are set.
    public var description: String {
        let url = self.url.map(DatabaseSource.redacted) ?? "unset"
        return "DatabaseSourceConfig(url: \(url), queries: \(queries.map { $0.kind.rawValue }))"
    }
}
