/// A value bound to or read from a statement of either engine: the store keeps integers, texts and NULLs, nothing
/// else (PostgreSQL's other answers are read as SQLite would give them: ``PostgresResult``).
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)
}
