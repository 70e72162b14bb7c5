import AppleData
import CSQLite
import Foundation
import ReconModel

/// The store's connection to an SQLite file (``StoreDatabase``).
///
/// Owns the `sqlite3*` handle and closes it in `deinit`.
///
/// Not Sendable: one connection is used by one task at a time, as SQLite intends.
package final class SQLiteDatabase: StoreDatabase {
    package typealias Handle = OpaquePointer

    package let path: String
    private let handle: Handle
    package var dialect: SQLDialect { .sqlite }
    package var isCitus: Bool { false }

    /// SQLite's memory statistics turned off, once, before the first connection initializes SQLite: each of the
    /// millions of allocations a report makes would otherwise take a process-wide mutex (SQLite's code, unused).
    private static let memoryStatisticsOff = iaprecon_sqlite_memstatus_off()

    /// The helper threads SQLite's sorter may use beside the connection's own: one per core, at most 8.
    ///
    /// `PRAGMA threads` (https://www.sqlite.org/pragma.html#pragma_threads): an index build, a sorted
    /// `INSERT … SELECT` or a large `ORDER BY` then sorts its runs on every core; its result is the same.
    package static let sortThreads = Int32(min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 8))

    /// Opens (creating if needed) the database at `path`.
    ///
    /// - Parameters:
    ///   - path: the file; created with mode 0600 when absent.
    ///   - readOnly: open with `SQLITE_OPEN_READONLY` and `PRAGMA query_only`: never creates the
    ///     file, never writes (https://www.sqlite.org/c3ref/open.html).
    /// - Throws: ``StoreError/cannotOpen(path:message:)``.
    package init(path: String, readOnly: Bool = false) throws(StoreError) {
        _ = Self.memoryStatisticsOff
        self.path = path
        if !readOnly, path != ":memory:", !FileManager.default.fileExists(atPath: path) {
            // Create the file ourselves so its mode is 0600 from the first byte.
            let fd = open(path, O_CREAT | O_WRONLY | O_EXCL, 0o600)
            if fd < 0, errno != EEXIST {
                throw .cannotOpen(path: path, message: String(cString: strerror(errno)))
            }
            if fd >= 0 { close(fd) }
        }
        var db: Handle?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw .cannotOpen(path: path, message: message)
        }
        handle = db
        sqlite3_busy_timeout(db, 5_000)
        sqlite3_extended_result_codes(db, 1)
        sqlite3_limit(db, SQLITE_LIMIT_WORKER_THREADS, Self.sortThreads)
        if readOnly {
            // A second guard: even a statement that slips through cannot change the file.
            try execute("PRAGMA query_only = 1", context: "opening '\(path)' read-only")
        }
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one statement without results, or a script of several (a migration's, an index list).
    package func execute(_ sql: String, context: @autoclosure () -> String) throws(StoreError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorMessage)
            throw .sqlite(code: rc, message: message, context: context())
        }
    }

    /// Sets SQLite's `PRAGMA` `setting` (`name = value`, one or more joined by `;`).
    package func pragma(_ setting: String, context: @autoclosure () -> String) throws(StoreError) {
        try execute(
            setting.split(separator: ";").map { "PRAGMA " + $0.trimmingCharacters(in: .whitespaces) }.joined(
                separator: ";"),
            context: context())
    }

    /// Compiles `sql` into a reusable statement.
    package func prepare(_ sql: String) throws(StoreError) -> any StoreStatement {
        try prepareSQLite(sql)
    }

    /// Compiles `sql` into a reusable SQLite statement, with what only SQLite has (its handle).
    package func prepareSQLite(_ sql: String) throws(StoreError) -> SQLiteStatement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw .sqlite(code: rc, message: lastErrorMessage, context: "preparing a statement")
        }
        return SQLiteStatement(handle: stmt, database: self)
    }

    /// Compiles the INSERT `insert` declares.
    package func prepare(_ insert: RowInsert) throws(StoreError) -> any StoreStatement {
        try prepareSQLite(insert.sql)
    }

    /// The INSERT `insert` declares, 64 rows to a statement (``SQLiteRowBatch``).
    package func prepareRows(_ insert: RowInsert) throws(StoreError) -> any StoreStatement {
        try SQLiteRowBatch(insert, rowsPerRun: 64, database: self)
    }

    /// Whether a transaction is open on this connection (`sqlite3_get_autocommit` is off).
    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    package var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// Whether the store has a table called `name`.
    package func tableExists(_ name: String) throws(StoreError) -> Bool {
        try scalar("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = $1", [.text(name)]) ?? 0 > 0
    }
}

@available(*, unavailable)
extension SQLiteDatabase: Sendable {}
