import AppleData
import Foundation
import Logging
import ReconModel

/// The store: the ledger, receipts, catalog, rejected rows, evidence, findings and runs, in an SQLite file
/// or in a PostgreSQL database (a `postgresql://` URL).
///
/// One instance owns one connection; use it from one task at a time.
public final class ReconStore {
    /// The file, or the database's URL without its user and password (`postgresql://HOST:PORT/DB`).
    public let path: String
    package let db: any StoreDatabase
    package let clock: any ReconClock

    /// The schema version this program writes (the number of migrations).
    public static var schemaVersion: Int { Schema.migrations.count }

    /// Opens the store at `path` as `opening` says: the one way to open a store.
    ///
    /// ``Opening/createIfAbsent`` creates it (mode 0600) with its schema when absent; a writable store gets any
    /// migrations it lacks; a read-only one must already have this program's schema.
    ///
    /// - Throws: ``StoreError/noStore(path:)`` when `opening` needs a file and there is none at `path`;
    ///   ``StoreError`` when the file cannot be opened, is not a store, or its schema is not one this program can use.
    public init(
        path: String, clock: any ReconClock = SystemClock(), _ opening: Opening = .createIfAbsent
    ) throws(StoreError) {
        self.clock = clock
        if DatabaseSource.isURL(path) {
            let source: DatabaseSource
            do {
                source = try DatabaseSource(url: path, environment: ProcessInfo.processInfo.environment, key: "db")
            } catch {
                throw .cannotOpen(path: DatabaseSource.redacted(path), message: error.localizedDescription)
            }
            self.path = source.name
            let postgres = PostgresDatabase(try PostgresSession(source, logger: Logger(label: "iap-recon.store")))
            db = postgres
            try PostgresSchema.open(postgres, opening: opening, clock: clock)
            return
        }
        self.path = path
        if opening != .createIfAbsent {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
            else {
                throw .noStore(path: path)
            }
        }
        let readOnly = opening == .readOnly
        db = try SQLiteDatabase(path: path, readOnly: readOnly)
        if !readOnly {
            // A new file gets larger pages (fewer B-tree levels for a big ledger); the size can
            // only be chosen before the first table exists and before WAL is on.
            do {
                if try db.scalar("SELECT COUNT(*) FROM sqlite_schema") == 0 {
                    try db.execute("PRAGMA page_size = 16384", context: "creating '\(path)'")
                }
            } catch {
                if case .sqlite(let code, _, _) = error, code == 26 {  // SQLITE_NOTADB
                    throw .cannotOpen(path: path, message: "not an iap-recon store (not an SQLite database)")
                }
                throw error
            }
            try db.execute("PRAGMA journal_mode=WAL", context: "enabling WAL on '\(path)'")
            try db.pragma("synchronous=NORMAL; foreign_keys=OFF; temp_store=MEMORY")
            try migrate()
        } else {
            try checkSchemaWithoutWriting()
        }
    }

    /// A way to open this SQLite store again, read-only, on another thread.
    ///
    /// Its committed rows can then be read there while this connection reads or writes (write-ahead logging:
    /// https://www.sqlite.org/wal.html). Nil for PostgreSQL, whose password this store does not keep, and for an
    /// in-memory database.
    package var sqliteReader: (@Sendable () throws(StoreError) -> ReconStore)? {
        guard db.dialect == .sqlite, path != ":memory:" else { return nil }
        let (path, clock) = (path, clock)
        return { () throws(StoreError) in try ReconStore(path: path, clock: clock, .readOnly) }
    }

    /// Runs `body` in one read transaction: every query in it sees the same committed state.
    public func read<T>(_ body: () throws -> T) throws -> T {
        try db.readTransaction(body)
    }

    /// The read-only counterpart of ``migrate()``: the applied migrations must be exactly this
    /// program's, read without creating anything.
    private func checkSchemaWithoutWriting() throws(StoreError) {
        let known = Schema.migrations.count
        let applied: [String]
        do throws(StoreError) {
            let hasTable =
                try db.scalar(
                    "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'") ?? 0
            guard hasTable > 0 else {
                throw StoreError.cannotOpen(path: path, message: "not an iap-recon store (no schema)")
            }
            let stmt = try db.prepare("SELECT name FROM schema_migrations ORDER BY rowid")
            var names: [String] = []
            while try stmt.step() { names.append(stmt.text(0)) }
            applied = names
        } catch {
            if case .sqlite(let code, _, _) = error, code & 0xFF == 26 {  // SQLITE_NOTADB
                throw .cannotOpen(path: path, message: "not an iap-recon store (not an SQLite database)")
            }
            throw error
        }
        if applied.count > known || !zip(applied, Schema.migrations).allSatisfy({ $0 == $1.name }) {
            throw .newerSchema(path: path, found: applied.count, known: known)
        }
        if applied.count < known {
            throw .olderSchema(path: path, found: applied.count, known: known)
        }
    }

    /// How a command opens its store: only `import`, `run` and `demo` create one (CONTRACT §2);
    /// `verify` and `report` need it to exist; `lookup` and `serve` read it without writing.
    public enum Opening: Sendable, Hashable {
        /// Created with its schema when absent.
        case createIfAbsent
        /// Must exist: a mistyped path answers "no store", never "nothing found".
        case existing
        /// Must exist, and is opened read-only: nothing created, migrated or written, so a
        /// reader keeps answering while a nightly run holds the lock.
        case readOnly
    }

    private func appliedMigrations() throws(StoreError) -> [String] {
        try db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at INTEGER NOT NULL)",
            context: "reading the schema version of '\(path)'")
        let stmt = try db.prepare("SELECT name FROM schema_migrations ORDER BY rowid")
        var names: [String] = []
        while try stmt.step() { names.append(stmt.text(0)) }
        return names
    }

    private func migrate() throws(StoreError) {
        let applied: [String]
        do {
            applied = try appliedMigrations()
        } catch {
            if case .sqlite(let code, _, _) = error, code == 26 {  // SQLITE_NOTADB
                throw .cannotOpen(path: path, message: "not an iap-recon store (not an SQLite database)")
            }
            throw error
        }
        if applied.count > Schema.migrations.count
            || !zip(applied, Schema.migrations).allSatisfy({ $0 == $1.name })
        {
            throw .newerSchema(path: path, found: applied.count, known: Schema.migrations.count)
        }
        for migration in Schema.migrations.dropFirst(applied.count) {
            do {
                try db.transaction {
                    try db.execute(migration.sql, context: "applying migration \(migration.name)")
                    try db.prepare(RowInsert(into: "schema_migrations", ["name", "applied_at"]))
                        .run([.text(migration.name), .integer(clock.nowMillis())])
                }
            } catch let error as StoreError {
                throw error
            } catch {
                throw .sqlite(code: 1, message: "\(error)", context: "applying migration \(migration.name)")
            }
        }
    }

    /// Runs `body` in one write transaction.
    package func write<T>(_ body: () throws -> T) throws -> T {
        try db.transaction(body)
    }
}

@available(*, unavailable)
extension ReconStore: Sendable {}
