/// What the store's two engines say differently, and nothing else: the statements are written once, in the SQL that
/// SQLite 3.40 and PostgreSQL 15 both read (`$1` parameters, `ON CONFLICT … DO`, `RETURNING`, `NULLS FIRST`/`LAST`,
/// `IS [NOT] DISTINCT FROM`, `true`/`false`), and a statement that needs one of these differences interpolates it.
///
/// No statement's text is rewritten: the value only supplies words.
package enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// A column of text, compared and sorted byte by byte in both (SQLite's `BINARY`, PostgreSQL's `"C"`), whatever
    /// collation a PostgreSQL database was created with.
    package var text: String {
        switch self {
        case .sqlite: return "TEXT"
        case .postgres: return "TEXT COLLATE \"C\""
        }
    }

    /// A 64-bit integer column.
    package var integer: String {
        switch self {
        case .sqlite: return "INTEGER"
        case .postgres: return "BIGINT"
        }
    }

    /// After a table's column list: SQLite keeps a table with a key of its own clustered by that key.
    package var withoutRowID: String {
        switch self {
        case .sqlite: return " WITHOUT ROWID"
        case .postgres: return ""
        }
    }

    /// After a table name in a `FROM`: SQLite's index hint; PostgreSQL's planner chooses alone.
    package func indexedBy(_ index: String) -> String {
        switch self {
        case .sqlite: return " INDEXED BY \(index)"
        case .postgres: return ""
        }
    }

    /// Where `needle` first starts in `haystack`, from 1; 0 when it is not there.
    package func position(of needle: String, in haystack: String) -> String {
        switch self {
        case .sqlite: return "instr(\(haystack), \(needle))"
        case .postgres: return "strpos(\(haystack), \(needle))"
        }
    }

    /// Starts a transaction that writes: SQLite takes its write lock at once (one writer waits at the start, not
    /// midway); on PostgreSQL one writer at a time is the advisory lock's work (``RunLock``).
    package var beginWrite: String {
        switch self {
        case .sqlite: return "BEGIN IMMEDIATE"
        case .postgres: return "BEGIN"
        }
    }

    /// Starts a transaction that reads one committed state throughout.
    package var beginRead: String {
        switch self {
        case .sqlite: return "BEGIN DEFERRED"
        case .postgres: return "BEGIN ISOLATION LEVEL REPEATABLE READ"
        }
    }
}
