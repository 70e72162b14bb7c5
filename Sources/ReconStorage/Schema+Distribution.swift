import AppleData
import ReconModel

/// The original transaction id in the key of every table kept per transaction (docs/store.md, "The store on
/// Citus"): Citus distributes a table by one column, and every key of a distributed table must include it.
///
/// The kept results were keyed by transaction id alone. Each now carries its transaction's original transaction id
/// (``TransactionGroup/originalTransactionID``), first in its columns and last in its key: SQLite clusters a
/// `WITHOUT ROWID` table by its key, and the order detection writes and reads them in (transaction id, or revenue
/// line) stays the same. The kept findings carry their group's as `group_original_transaction_id` (a finding's own
/// `original_transaction_id` may be absent), and so does the evidence (Apple's word on the original transaction may be
/// absent: then its transaction's own id, as Apple documents for a purchase neither restored nor renewed). The tables that note changes since the last report note it too, so a
/// trigger on a distributed table writes to the shard of its own row.
extension Schema {
    /// The column the per-transaction tables are distributed by.
    package static let distributionColumn = "original_transaction_id"

    /// The original transaction id of the transaction whose id is `transactionID`, in SQL, as
    /// ``TransactionGroup/originalTransactionID`` works it out: the smallest the ledger's rows name, else the smallest
    /// Apple's evidence names, else the transaction id.
    static func originalOf(_ transactionID: String) -> String {
        """
        COALESCE(
            (SELECT MIN(t.original_transaction_id) FROM transactions t WHERE t.transaction_id = \(transactionID)),
            (SELECT MIN(e.original_transaction_id) FROM evidence e WHERE e.transaction_id = \(transactionID)),
            \(transactionID))
        """
    }

    /// The secondary indexes of the tables `issue34-distribution-keys` rebuilds, as before.
    package static let distributedTableIndexes = """
        CREATE INDEX transaction_results_by_next_change ON transaction_results(next_change_at)
            WHERE next_change_at IS NOT NULL;
        \(revenuePartsByTransaction)
        CREATE INDEX ledger_events_by_day ON ledger_events(day);
        \(recognitionSalesByLastChange)
        """

    /// The tables kept per transaction or per original transaction, with the column each is distributed by: every
    /// one of their keys includes it, and it is never NULL.
    package static let distributedTables: [(table: String, column: String)] = [
        ("transaction_results", distributionColumn), ("transaction_findings", "group_original_transaction_id"),
        ("original_results", distributionColumn), ("original_findings", "group_original_transaction_id"),
        ("revenue_parts", distributionColumn), ("ledger_events", distributionColumn),
        ("recognition_sales", distributionColumn), ("dirty_transactions", distributionColumn),
        ("dirty_originals", distributionColumn), ("entitlements", distributionColumn),
        ("subscription_statuses", distributionColumn), ("evidence", "group_original_transaction_id"),
    ]

    /// Rebuilds each kept table in its new shape, its rows copied with the column added first, and the triggers that
    /// note changes.
    package static let distributionKeys: String = {
        let rebuilt: [(name: String, added: String)] = [
            ("transaction_results", originalOf("x.transaction_id")),
            ("transaction_findings", originalOf("x.group_id")),
            ("original_findings", "x.group_id"),
            ("revenue_parts", originalOf("x.transaction_id")),
            ("ledger_events", originalOf("x.transaction_id")),
        ]
        let tables = rebuilt.map { table in
            """
            \(create(table.name, as: table.name + "_distributed"))
            INSERT INTO \(table.name)_distributed SELECT \(table.added), x.* FROM \(table.name) x;
            DROP TABLE \(table.name);
            ALTER TABLE \(table.name)_distributed RENAME TO \(table.name);
            """
        }
        return """
            ALTER TABLE evidence ADD COLUMN group_original_transaction_id TEXT NOT NULL DEFAULT '';
            UPDATE evidence SET group_original_transaction_id = COALESCE(original_transaction_id, transaction_id);
            DROP INDEX transactions_by_record;
            \(Schema.transactionIndexes[0].sql);
            \(tables.joined(separator: "\n"))
            \(create("recognition_sales", as: "recognition_sales_distributed"))
            INSERT INTO recognition_sales_distributed SELECT * FROM recognition_sales;
            DROP TABLE recognition_sales;
            ALTER TABLE recognition_sales_distributed RENAME TO recognition_sales;
            \(distributedTableIndexes)
            \(changeTriggerNames.map(StoreTrigger.sqliteDrop).joined(separator: "\n"))
            CREATE TABLE dirty_transactions_distributed (
                \(distributedColumn(true))transaction_id TEXT NOT NULL,
                \(distributedKey("transaction_id", true))
            ) WITHOUT ROWID;
            INSERT INTO dirty_transactions_distributed SELECT \(originalOf("x.transaction_id")), x.transaction_id
                FROM dirty_transactions x;
            DROP TABLE dirty_transactions;
            ALTER TABLE dirty_transactions_distributed RENAME TO dirty_transactions;
            \(changeTriggers(distributed: true))
            """
    }()
}
