import Foundation

/// Why the store could not do what was asked. The run cannot continue after one of these.
public enum StoreError: LocalizedError, Sendable, Equatable {
    /// The database file could not be opened or created.
    case cannotOpen(path: String, message: String)
    /// SQLite reported an error; `context` says what we were doing (never statement arguments).
    case sqlite(code: Int32, message: String, context: String)
    /// The file is a store of a newer schema than this program knows.
    case newerSchema(path: String, found: Int, known: Int)
    /// A command that only reads found no store at the path (it never creates one).
    case noStore(path: String)
    /// The file is a store of an older schema, and a read-only opening cannot migrate it.
    case olderSchema(path: String, found: Int, known: Int)
    /// Another run holds the store's lock.
    case locked(holder: String)

    public var errorDescription: String? {
        switch self {
        case .cannotOpen(let path, let message):
            return "cannot open store '\(path)': \(message)"
        case .sqlite(let code, let message, let context):
            return "store error while \(context): \(message) (SQLite code \(code))"
        case .newerSchema(let path, let found, let known):
            return "store '\(path)' has schema version \(found); this iap-recon knows up to \(known)"
        case .noStore(let path):
            return "no store at \(path)"
        case .olderSchema(let path, let found, let known):
            return "store '\(path)' has schema version \(found); this iap-recon needs \(known): run import or run once to upgrade it"
        case .locked(let holder):
            return "store is locked by \(holder)"
        }
    }
}
