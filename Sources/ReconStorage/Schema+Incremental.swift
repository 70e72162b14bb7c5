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
        \(dirtyTriggers(table: "transactions", judged: judgedLedgerColumns))
        \(dirtyTriggers(table: "evidence"))
        \(receiptTriggers(table: "receipts", judged: ["user_id", "format", "data"]))
        \(receiptTriggers(table: "receipt_checks"))

        \(resultTables.map { create($0.name, as: $0.name) }.joined(separator: "\n"))
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

    /// Notes the transaction of every row inserted, changed or deleted in `table` as changed since the last report
    /// (and, for a ledger row, its original transaction id).
    private static func dirtyTriggers(table: String, judged: [String] = []) -> String {
        noteTriggers(table: table, judged: judged) { row in
            var sql = noteIfAbsent("dirty_transactions", "transaction_id", "\(row).transaction_id")
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
    private static func receiptTriggers(table: String, judged: [String] = []) -> String {
        noteTriggers(table: table, judged: judged) { row in
            """
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
        """
        INSERT INTO \(table) (\(column)) SELECT \(value)
            WHERE NOT EXISTS (SELECT 1 FROM \(table) WHERE \(column) = \(value));
        """
    }

    /// The insert, update and delete triggers of `table` running `note` for the new row, both rows, the old row, once
    /// a report has kept something; an update only when one of the `judged` columns changed (any, when none is named).
    private static func noteTriggers(table: String, judged: [String], note: (String) -> String) -> String {
        let when = "WHEN EXISTS (SELECT 1 FROM detection_state)"
        let changed =
            judged.isEmpty ? "" : " AND (" + judged.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ") + ")"
        return """
            CREATE TRIGGER \(table)_dirty_insert AFTER INSERT ON \(table) \(when)
            BEGIN \(note("NEW")) END;
            CREATE TRIGGER \(table)_dirty_update AFTER UPDATE ON \(table) \(when)\(changed)
            BEGIN \(note("OLD")) \(note("NEW")) END;
            CREATE TRIGGER \(table)_dirty_delete AFTER DELETE ON \(table) \(when)
            BEGIN \(note("OLD")) END;
            """
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
    /// words around its age when it states one (``AgedText``).
    package static let keptFindingColumns = """
        group_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        fingerprint TEXT NOT NULL, severity_rank INTEGER NOT NULL, code TEXT NOT NULL,
        transaction_id TEXT NOT NULL, original_transaction_id TEXT, user_ids TEXT NOT NULL, product_id TEXT,
        environment TEXT, amount_milli INTEGER, currency TEXT, detail TEXT NOT NULL, record_ids TEXT NOT NULL,
        receipt_id TEXT, subject TEXT, aged_before TEXT, aged_since INTEGER, aged_after TEXT,
        PRIMARY KEY (group_id, seq)
        """

    /// The tables of each transaction's results, by name, with their columns and keys.
    package static let resultTables: [(name: String, body: String)] = [
        (
            "transaction_results",
            """
            transaction_id TEXT PRIMARY KEY NOT NULL,
            next_change_at INTEGER,
            excluded_currency TEXT,
            excluded_milli INTEGER,
            recovered_currency TEXT,
            recovered_milli INTEGER,
            unpriced INTEGER NOT NULL,
            duplicates INTEGER NOT NULL
            """
        ),
        (
            "transaction_findings",
            keptFindingColumns
        ),
        (
            "original_results",
            """
            original_transaction_id TEXT PRIMARY KEY NOT NULL,
            next_change_at INTEGER
            """
        ),
        (
            "original_findings",
            keptFindingColumns
        ),
        (
            "revenue_parts",
            """
            transaction_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            day INTEGER NOT NULL,
            product_id TEXT NOT NULL,
            currency TEXT NOT NULL,
            units INTEGER NOT NULL,
            gross_milli INTEGER NOT NULL,
            refunds_milli INTEGER NOT NULL,
            rate_ppm INTEGER NOT NULL,
            net_milli INTEGER NOT NULL,
            stated_milli INTEGER,
            stated_currency TEXT,
            stated_source TEXT,
            PRIMARY KEY (day, product_id, currency, transaction_id, seq)
            """
        ),
        ("ledger_events", ledgerEventsColumns),
        ("recognition_sales", recognitionSalesColumns),
        (
            "revenue_lines",
            """
            day INTEGER NOT NULL,
            product_id TEXT NOT NULL,
            currency TEXT NOT NULL,
            units INTEGER NOT NULL,
            gross_milli INTEGER NOT NULL,
            refunds_milli INTEGER NOT NULL,
            estimated_milli INTEGER NOT NULL,
            proceeds_milli INTEGER NOT NULL,
            proceeds_currency TEXT NOT NULL,
            proceeds_source TEXT NOT NULL,
            PRIMARY KEY (day, product_id, currency)
            """
        ),
    ]

    /// `CREATE TABLE qualified` with the columns and keys of the result table `name`.
    package static func create(_ name: String, as qualified: String) -> String {
        let body = resultTables.first { $0.name == name }?.body ?? ""
        return "CREATE TABLE \(qualified) (\n\(body)\n) WITHOUT ROWID;"
    }
}
