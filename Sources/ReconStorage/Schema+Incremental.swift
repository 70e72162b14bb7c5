import AppleData
import ReconModel

/// What an incremental report keeps between runs (CONTRACT §5 "Incremental reports"): each transaction's share of
/// the report, and the transactions changed since.
///
/// A transaction group's findings, revenue parts and counters are worked out from its own rows and evidence, the
/// catalog, the settings and a few store-wide indexes. So the store keeps them per transaction, with the moment they
/// could next change by time alone, and a report re-runs only the transactions whose rows changed since (the
/// triggers below note them) or whose moment came. The revenue lines are kept as the last report showed them and
/// re-added from their parts where a re-run transaction touches them.
extension Schema {
    /// The tables and the triggers; `detection_state` stays empty until a report builds them, and the triggers note
    /// nothing until then (a bulk first load pays nothing).
    package static let incrementalDetection = """
        CREATE TABLE detection_state (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            fingerprint TEXT NOT NULL,
            as_of INTEGER NOT NULL,
            counters TEXT NOT NULL
        );
        CREATE TABLE dirty_transactions (transaction_id TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
        CREATE TABLE dirty_originals (original_transaction_id TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
        \(changeTriggers(distributed: false))

        \(resultTables(distributed: false).map { create($0.name, as: $0.name, distributed: false) }
            .joined(separator: "\n"))
        \(resultIndexes)

        CREATE TABLE same_purchase_shown (
            transaction_id TEXT PRIMARY KEY NOT NULL,
            purchase TEXT NOT NULL
        ) WITHOUT ROWID;
        """

    /// The ledger columns detection reads (``TransactionsRow``): a re-import that rewrites only where a row came from
    /// (file, line, import time) changes nothing a report shows.
    package static let judgedLedgerColumns = [
        "record_id", "user_id", "product_id", "transaction_id", "original_transaction_id", "purchase_date", "quantity",
        "environment", "price_milli", "currency", "storefront", "verification_status", "recon_verdict",
        "recon_verification_id", "delivered_at", "finished_at", "receipt_id",
    ]

    /// The triggers that note what changed since the last report in the ledger, the evidence, the receipts and their
    /// checks; `distributed`: with each changed transaction's original transaction id (``distributionColumn``).
    package static func changeTriggers(distributed: Bool) -> String {
        changeTriggerList(distributed: distributed).map(\.sqlite).joined(separator: "\n")
    }

    /// ``changeTriggers(distributed:)``, each trigger said once for both engines.
    package static func changeTriggerList(distributed: Bool) -> [StoreTrigger] {
        dirtyTriggers(table: "transactions", judged: judgedLedgerColumns, distributed: distributed)
            + dirtyTriggers(table: "evidence", distributed: distributed)
            + receiptTriggers(table: "receipts", judged: ["user_id", "format", "data"], distributed: distributed)
            + receiptTriggers(table: "receipt_checks", distributed: distributed)
    }

    /// The names of ``changeTriggerList(distributed:)``'s triggers.
    package static var changeTriggerNames: [String] {
        noted.flatMap { table in ["insert", "update", "delete"].map { "\(table)_dirty_\($0)" } }
    }

    /// The tables whose rows ``changeTriggers(distributed:)`` note.
    package static let noted = ["transactions", "evidence", "receipts", "receipt_checks"]

    /// Notes the transaction of every row inserted, changed or deleted in `table` as changed since the last report
    /// (and, for a ledger row, its original transaction id).
    private static func dirtyTriggers(table: String, judged: [String] = [], distributed: Bool) -> [StoreTrigger] {
        noteTriggers(table: table, judged: judged) { row in
            var sql =
                distributed
                ? noteIfAbsent(
                    "dirty_transactions", ["transaction_id", "original_transaction_id"],
                    ["\(row).transaction_id", "COALESCE(\(row).original_transaction_id, \(row).transaction_id)"])
                : noteIfAbsent("dirty_transactions", "transaction_id", "\(row).transaction_id")
            // A ledger row also belongs to the group of its original transaction id.
            if table == "transactions" {
                sql +=
                    "\n" + noteIfAbsent("dirty_originals", "original_transaction_id", "\(row).original_transaction_id")
            }
            return sql
        }
    }

    /// A receipt's uploader, format and creation date are part of the evidence read from it: a changed receipt or
    /// receipt check notes the transactions of that evidence.
    private static func receiptTriggers(table: String, judged: [String] = [], distributed: Bool) -> [StoreTrigger] {
        noteTriggers(table: table, judged: judged) { row in
            distributed
                ? """
                INSERT INTO dirty_transactions (transaction_id, original_transaction_id)
                    SELECT DISTINCT e.transaction_id, COALESCE(e.original_transaction_id, e.transaction_id)
                    FROM evidence e WHERE e.receipt_id = \(row).receipt_id
                        AND NOT EXISTS (SELECT 1 FROM dirty_transactions d
                            WHERE d.transaction_id = e.transaction_id
                                AND d.original_transaction_id = COALESCE(e.original_transaction_id, e.transaction_id));
                """
                : """
                INSERT INTO dirty_transactions (transaction_id)
                    SELECT DISTINCT e.transaction_id FROM evidence e WHERE e.receipt_id = \(row).receipt_id
                        AND NOT EXISTS (SELECT 1 FROM dirty_transactions d WHERE d.transaction_id = e.transaction_id);
                """
        }
    }

    /// `value` into `table`'s `column` unless it is there.
    ///
    /// Not `INSERT OR IGNORE`: a trigger's conflict clause gives way to the outer statement's (an upsert's ABORT).
    private static func noteIfAbsent(_ table: String, _ column: String, _ value: String) -> String {
        noteIfAbsent(table, [column], [value])
    }

    /// `values` into `table`'s `columns` unless a row holds them all.
    private static func noteIfAbsent(_ table: String, _ columns: [String], _ values: [String]) -> String {
        let matches = zip(columns, values).map { "\($0) = \($1)" }.joined(separator: " AND ")
        return """
            INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", "))
                WHERE NOT EXISTS (SELECT 1 FROM \(table) WHERE \(matches));
            """
    }

    /// The insert, update and delete triggers of `table` running `note` for the new row, both rows, the old row, once
    /// a report has kept something; an update only when one of the `judged` columns changed (any, when none is named).
    private static func noteTriggers(table: String, judged: [String], note: (String) -> String) -> [StoreTrigger] {
        let when = "EXISTS (SELECT 1 FROM detection_state)"
        return [
            StoreTrigger(
                name: "\(table)_dirty_insert", timing: "AFTER INSERT", table: table, condition: when,
                body: [note("NEW")]),
            StoreTrigger(
                name: "\(table)_dirty_update", timing: "AFTER UPDATE", table: table, condition: when, changed: judged,
                body: [note("OLD"), note("NEW")]),
            StoreTrigger(
                name: "\(table)_dirty_delete", timing: "AFTER DELETE", table: table, condition: when,
                body: [note("OLD")]),
        ]
    }

    /// The secondary indexes of the result tables, built with them and again when staged tables replace them.
    package static let resultIndexes = """
        CREATE INDEX transaction_results_by_next_change ON transaction_results(next_change_at)
            WHERE next_change_at IS NOT NULL;
        \(revenuePartsByTransaction)
        CREATE INDEX ledger_events_by_day ON ledger_events(day);
        CREATE INDEX original_results_by_next_change ON original_results(next_change_at)
            WHERE next_change_at IS NOT NULL;
        \(recognitionSalesByLastChange)
        """

    /// A kept finding of a group (a transaction id or an original transaction id), in the order found, with the
    /// words around its age when it states one (``AgedText``); `distributed`: with the group's original transaction
    /// id (the finding's own may be absent) in its key.
    package static func keptFindingColumns(distributed: Bool, dialect: SQLDialect = .sqlite) -> String {
        """
        \(distributedColumn(distributed, "group_original_transaction_id", dialect: dialect))group_id \(dialect.text) NOT NULL,
        seq \(dialect.integer) NOT NULL,
        fingerprint \(dialect.text) NOT NULL, severity_rank \(dialect.integer) NOT NULL, code \(dialect.text) NOT NULL,
        transaction_id \(dialect.text) NOT NULL, original_transaction_id \(dialect.text), user_ids \(dialect.text) NOT NULL, product_id \(dialect.text),
        environment \(dialect.text), amount_milli \(dialect.integer), currency \(dialect.text), detail \(dialect.text) NOT NULL, record_ids \(dialect.text) NOT NULL,
        receipt_id \(dialect.text), subject \(dialect.text), aged_before \(dialect.text), aged_since \(dialect.integer), aged_after \(dialect.text),
        \(distributedKey("group_id, seq", by: "group_original_transaction_id", distributed))
        """
    }

    /// The distribution column `column` (``distributionColumn``) of a table, its first, when `distributed`.
    ///
    /// First, not last: SQLite 3.40's `PRAGMA integrity_check` reports NULLs in a `WITHOUT ROWID` table whose key
    /// column comes after a NOT NULL column followed by a nullable one, though the rows are whole.
    package static func distributedColumn(
        _ distributed: Bool, _ column: String = "original_transaction_id", dialect: SQLDialect = .sqlite
    ) -> String {
        distributed ? "\(column) \(dialect.text) NOT NULL,\n" : ""
    }

    /// A key of `columns`, ending with the distribution column `column` when `distributed`.
    ///
    /// The table keeps its order (SQLite clusters a `WITHOUT ROWID` table by its key) and its key includes the
    /// column Citus distributes it by.
    package static func distributedKey(
        _ columns: String, by column: String = "original_transaction_id", _ distributed: Bool
    ) -> String {
        "PRIMARY KEY (\(columns)\(distributed ? ", " + column : ""))"
    }

    /// The tables of each transaction's results, by name, with their columns and keys, as this version keeps them.
    package static let resultTables = resultTables(distributed: true)

    /// The tables of each transaction's results; `distributed`: as `issue34-distribution-column` left them, each
    /// with its transaction's original transaction id in its key.
    package static func resultTables(distributed: Bool, dialect: SQLDialect = .sqlite) -> [(name: String, body: String)]
    {
        [
            (
                "transaction_results",
                """
                \(distributedColumn(distributed, dialect: dialect))transaction_id \(dialect.text) \(distributed ? "" : "PRIMARY KEY ")NOT NULL,
                next_change_at \(dialect.integer),
                excluded_currency \(dialect.text),
                excluded_milli \(dialect.integer),
                recovered_currency \(dialect.text),
                recovered_milli \(dialect.integer),
                unpriced \(dialect.integer) NOT NULL,
                duplicates \(dialect.integer) NOT NULL\(distributed ? ",\n" + distributedKey("transaction_id", true) : "")
                """
            ),
            ("transaction_findings", keptFindingColumns(distributed: distributed, dialect: dialect)),
            (
                "original_results",
                """
                original_transaction_id \(dialect.text) PRIMARY KEY NOT NULL,
                next_change_at \(dialect.integer)
                """
            ),
            ("original_findings", keptFindingColumns(distributed: distributed, dialect: dialect)),
            (
                "revenue_parts",
                """
                \(distributedColumn(distributed, dialect: dialect))transaction_id \(dialect.text) NOT NULL,
                seq \(dialect.integer) NOT NULL,
                day \(dialect.integer) NOT NULL,
                product_id \(dialect.text) NOT NULL,
                currency \(dialect.text) NOT NULL,
                units \(dialect.integer) NOT NULL,
                gross_milli \(dialect.integer) NOT NULL,
                refunds_milli \(dialect.integer) NOT NULL,
                rate_ppm \(dialect.integer) NOT NULL,
                net_milli \(dialect.integer) NOT NULL,
                stated_milli \(dialect.integer),
                stated_currency \(dialect.text),
                stated_source \(dialect.text),
                \(distributedKey("day, product_id, currency, transaction_id, seq", distributed))
                """
            ),
            ("ledger_events", ledgerEventsColumns(distributed: distributed, dialect: dialect)),
            ("recognition_sales", recognitionSalesColumns(distributed: distributed, dialect: dialect)),
            (
                "revenue_lines",
                """
                day \(dialect.integer) NOT NULL,
                product_id \(dialect.text) NOT NULL,
                currency \(dialect.text) NOT NULL,
                units \(dialect.integer) NOT NULL,
                gross_milli \(dialect.integer) NOT NULL,
                refunds_milli \(dialect.integer) NOT NULL,
                estimated_milli \(dialect.integer) NOT NULL,
                proceeds_milli \(dialect.integer) NOT NULL,
                proceeds_currency \(dialect.text) NOT NULL,
                proceeds_source \(dialect.text) NOT NULL,
                PRIMARY KEY (day, product_id, currency)
                """
            ),
        ]
    }

    /// `CREATE TABLE qualified` with the columns and keys of the result table `name` (``resultTables``; `distributed`
    /// false: as before `issue34-distribution-column`).
    package static func create(
        _ name: String, as qualified: String, distributed: Bool = true, temporary: Bool = false,
        dialect: SQLDialect = .sqlite
    ) -> String {
        let body = resultTables(distributed: distributed, dialect: dialect).first { $0.name == name }?.body ?? ""
        return "CREATE \(temporary ? "TEMP " : "")TABLE \(qualified) (\n\(body)\n)\(dialect.withoutRowID);"
    }
}
