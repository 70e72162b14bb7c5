import AppleData
import ReconModel

/// What an incremental report keeps for Apple's Sales and Financial Reports (CONTRACT §5 "Incremental reports"):
/// each transaction's events as those reports book them, and the days whose reports changed since.
///
/// A report compares Apple's rows of every day and fiscal month its reports cover with the ledger's events of those
/// days, so the events of the transactions it does not judge again come from the store. The proceeds of a sale depend
/// on what Apple's reports state for its day (``AppleProceeds``): a report imported, replaced or deleted notes its
/// days, and the next report judges again every transaction with an event on them.
extension Schema {
    /// The events table (created with the other result tables by ``incrementalDetection`` in a new store), the
    /// changed days and their triggers.
    package static let keptLedgerEvents = """
        CREATE TABLE IF NOT EXISTS ledger_events (
        \(ledgerEventsColumns(distributed: false))
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS ledger_events_by_day ON ledger_events(day);
        CREATE TABLE dirty_report_days (
            first_day INTEGER NOT NULL,
            last_day INTEGER NOT NULL,
            PRIMARY KEY (first_day, last_day)
        ) WITHOUT ROWID;
        \(reportDayTriggerList.map(\.sqlite).joined(separator: "\n"))
        """

    /// The columns of `ledger_events` (``LedgerEvent``), in a result table's form (``resultTables(distributed:)``).
    package static func ledgerEventsColumns(distributed: Bool, dialect: SQLDialect = .sqlite) -> String {
        """
        \(distributedColumn(distributed, dialect: dialect))transaction_id \(dialect.text) NOT NULL,
        seq \(dialect.integer) NOT NULL,
        day \(dialect.integer) NOT NULL,
        record_id \(dialect.text) NOT NULL,
        user_id \(dialect.text) NOT NULL,
        product_id \(dialect.text) NOT NULL,
        storefront \(dialect.text) NOT NULL,
        currency \(dialect.text) NOT NULL,
        units \(dialect.integer) NOT NULL,
        amount_milli \(dialect.integer) NOT NULL,
        proceeds_milli \(dialect.integer),
        proceeds_currency \(dialect.text),
        rate_ppm \(dialect.integer) NOT NULL,
        \(distributedKey("transaction_id, seq", distributed))
        """
    }

    /// The ledger's rows by product: which of Apple's products the ledger sells, without reading the ledger.
    package static let transactionsByProduct =
        "CREATE INDEX IF NOT EXISTS transactions_by_product ON transactions(product_id, purchase_date)"

    /// The triggers that note the days whose Apple reports changed: of the sales reports' rows and of the financial
    /// reports.
    package static var reportDayTriggerList: [StoreTrigger] {
        reportDayTriggers(table: "sales_report_rows", first: "day", last: "day")
            + reportDayTriggers(table: "financial_reports", first: "period_start", last: "period_end")
    }

    /// Notes the days from `first` through `last` of every row inserted, changed or deleted in `table`.
    ///
    /// Only once a report has kept something: a store's first report judges everything anyway.
    private static func reportDayTriggers(table: String, first: String, last: String) -> [StoreTrigger] {
        func note(_ row: String) -> String {
            """
            INSERT INTO dirty_report_days (first_day, last_day) SELECT \(row).\(first), \(row).\(last)
                WHERE NOT EXISTS (SELECT 1 FROM dirty_report_days
                    WHERE first_day = \(row).\(first) AND last_day = \(row).\(last));
            """
        }
        let when = "EXISTS (SELECT 1 FROM detection_state)"
        return [
            StoreTrigger(
                name: "\(table)_days_insert", timing: "AFTER INSERT", table: table, condition: when, body: [note("NEW")]
            ),
            StoreTrigger(
                name: "\(table)_days_update", timing: "AFTER UPDATE", table: table, condition: when,
                body: [note("OLD"), note("NEW")]),
            StoreTrigger(
                name: "\(table)_days_delete", timing: "AFTER DELETE", table: table, condition: when, body: [note("OLD")]
            ),
        ]
    }
}
