/// A row trigger of the store, said once and written in each engine's words: SQLite's `CREATE TRIGGER … WHEN …
/// BEGIN … END`, PostgreSQL's PL/pgSQL function running the same statements when the condition holds, and the row
/// trigger calling it.
///
/// The store notes what changed since the last report with these (``Schema/changeTriggerList(distributed:)``,
/// ``Schema/reportDayTriggerList(table:first:last:)``).
package struct StoreTrigger: Sendable {
    /// `transactions_dirty_insert`.
    package var name: String
    /// `AFTER INSERT`, `AFTER UPDATE` or `AFTER DELETE`.
    package var timing: String
    package var table: String
    /// When the statements run (read by both engines).
    package var condition: String
    /// An update's columns: the statements run only when one of them changed (any update, when none is named).
    package var changed: [String] = []
    /// The statements, each ending with `;`, reading the row as `NEW` or `OLD`.
    package var body: [String]

    /// As SQLite creates it.
    package var sqlite: String {
        "CREATE TRIGGER \(name) \(timing) ON \(table) WHEN \(condition)\(anyChanged("IS NOT"))\n"
            + "BEGIN \(body.joined(separator: " ")) END;"
    }

    /// ` AND (OLD.a <differ> NEW.a OR …)` over ``changed``, or nothing.
    private func anyChanged(_ differ: String) -> String {
        changed.isEmpty
            ? "" : " AND (" + changed.map { "OLD.\($0) \(differ) NEW.\($0)" }.joined(separator: " OR ") + ")"
    }

    /// As PostgreSQL creates it: the function, then the trigger.
    package var postgres: [String] {
        [
            """
            CREATE FUNCTION \(name)_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF \(condition)\(anyChanged("IS DISTINCT FROM")) THEN
                \(body.joined(separator: "\n    "))
              END IF;
              RETURN NULL;
            END
            $trigger$
            """,
            "CREATE TRIGGER \(name) \(timing) ON \(table) FOR EACH ROW EXECUTE FUNCTION \(name)_fn()",
        ]
    }

    /// Drops the trigger `name` in SQLite.
    package static func sqliteDrop(_ name: String) -> String { "DROP TRIGGER \(name);" }

    /// Drops the trigger `name` in PostgreSQL: with its function, which the trigger depends on.
    package static func postgresDrop(_ name: String) -> String { "DROP FUNCTION \(name)_fn() CASCADE" }
}
