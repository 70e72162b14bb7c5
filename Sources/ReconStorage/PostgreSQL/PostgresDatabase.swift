import ReconModel

/// The store's connection to a PostgreSQL database or a Citus cluster's coordinator (``StoreDatabase``), over one
/// ``PostgresSession``.
///
/// Runs the statements the repositories write for both engines, as written. A query in a transaction is read through
/// a cursor a batch at a time (``PostgresStatement``); a declared INSERT's rows go together (``RowInsert``).
package final class PostgresDatabase: StoreDatabase {
    package let session: PostgresSession

    /// A store in PostgreSQL, over `session`; `path` names it (never with its password).
    package init(_ session: PostgresSession) {
        self.session = session
    }

    package var path: String { session.name }
    package var dialect: SQLDialect { .postgres }
    package var isCitus: Bool { session.isCitus }
    package var isInTransaction: Bool { session.inTransaction }

    package func execute(_ sql: String, context: @autoclosure () -> String) throws(StoreError) {
        try session.execute(sql, context: context())
    }

    /// PostgreSQL has no `PRAGMA`s: its store is left as it is.
    package func pragma(_ setting: String, context: @autoclosure () -> String) throws(StoreError) {}

    package func prepare(_ sql: String) throws(StoreError) -> any StoreStatement {
        PostgresStatement(session: session, sql: sql)
    }

    package func prepare(_ insert: RowInsert) throws(StoreError) -> any StoreStatement {
        PostgresStatement(session: session, sql: insert.sql, insert: insert)
    }

    /// The INSERT `insert` declares: its rows in a transaction go together already (``PostgresPendingRows``).
    package func prepareRows(_ insert: RowInsert) throws(StoreError) -> any StoreStatement {
        try prepare(insert)
    }

    package func tableExists(_ name: String) throws(StoreError) -> Bool {
        try scalar(
            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1",
            [.text(name)]) ?? 0 > 0
    }
}

@available(*, unavailable)
extension PostgresDatabase: Sendable {}
