import AppleData
import Foundation
import ReconModel

/// Why the store could not do what was asked.
///
/// The run cannot continue after one of these.
public enum StoreError: LocalizedError, Sendable, Equatable {
    /// The database file could not be opened or created.
    case cannotOpen(path: String, message: String)
    /// SQLite reported an error; `context` says what we were doing (never statement arguments).
    case sqlite(code: Int32, message: String, context: String)
    /// PostgreSQL refused a statement, or the connection was lost; `message` is PostgreSQL's (with its SQLSTATE)
    /// and names the server, never the password.
    case postgres(state: String, message: String, context: String)
    /// The database holds tables of the store's names that no iap-recon created: nothing is touched.
    case foreignTables(path: String, tables: [String])
    /// The file is a store of a newer schema than this program knows.
    case newerSchema(path: String, found: Int, known: Int)
    /// The file is a store of an older schema, and a read-only opening cannot migrate it.
    case olderSchema(path: String, found: Int, known: Int)
    /// Another run holds the store's lock.
    case locked(holder: String)
    /// A stored value this program does not know (a newer program wrote it, or the file was edited).
    case unknownValue(table: String, column: String, value: String)
    /// A command that only reads or updates a store was pointed at a path with none (a typo
    /// must not create an empty store that answers "nothing found").
    case noStore(path: String)

    public var errorDescription: String? {
        switch self {
        case .cannotOpen(let path, let message):
            return "cannot open store '\(path)': \(message)"
        case .sqlite(let code, let message, let context):
            return "store error while \(context): \(message) (SQLite code \(code))"
        case .postgres(_, let message, let context):
            return "store error while \(context): \(message)"
        case .foreignTables(let path, let tables):
            return
                "\(path) holds tables iap-recon did not create (\(tables.joined(separator: ", "))): not an iap-recon store; nothing was changed"
        case .newerSchema(let path, let found, let known):
            return "store '\(path)' has schema version \(found); this iap-recon knows up to \(known)"
        case .olderSchema(let path, let found, let known):
            return
                "store '\(path)' has schema version \(found); this iap-recon needs \(known): run import or run once to upgrade it"
        case .locked(let holder):
            return "store is locked by \(holder)"
        case .unknownValue(let table, let column, let value):
            return "store table '\(table)' column '\(column)' holds unknown value '\(value)'"
        case .noStore(let path):
            return "no store at \(path)"
        }
    }
}
