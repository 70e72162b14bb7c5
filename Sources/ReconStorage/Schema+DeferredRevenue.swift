/// What revenue recognition keeps between reports (CONTRACT §5.1): the roll-forward the latest report showed, each
/// counted sale (a result table, ``resultTables``), and every sale's whole life summed by month.
extension Schema {
    /// `deferred_revenue_shown`: the latest report's roll-forward lines (milliunits); `deferred_revenue_shown_report`:
    /// the month of that report's as-of.
    package static let deferredRevenueShown = """
        CREATE TABLE deferred_revenue_shown (
            month INTEGER NOT NULL,
            product_id TEXT NOT NULL,
            currency TEXT NOT NULL,
            opening_milli INTEGER NOT NULL,
            billings_milli INTEGER NOT NULL,
            recognized_milli INTEGER NOT NULL,
            released_milli INTEGER NOT NULL,
            reversed_milli INTEGER NOT NULL,
            PRIMARY KEY (month, product_id, currency)
        ) WITHOUT ROWID;
        CREATE TABLE deferred_revenue_shown_report (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            last_month INTEGER NOT NULL
        );
        """

    /// A counted sale (``RecognitionSale``), kept per transaction with its other results.
    ///
    /// The schedule a night writes without reading the ledger again. `refunds` lists Apple's refunds (``SQLRevenue/refundsText(_:)``);
    /// `last_change` is the last instant anything about the sale changes, so the sales still active in a month are
    /// found by the index.
    package static func recognitionSalesColumns(distributed: Bool, dialect: SQLDialect = .sqlite) -> String {
        """
        transaction_id \(dialect.text) \(distributed ? "" : "PRIMARY KEY ")NOT NULL,
        original_transaction_id \(dialect.text) NOT NULL,
        user_id \(dialect.text) NOT NULL,
        product_id \(dialect.text) NOT NULL,
        currency \(dialect.text) NOT NULL,
        amount_milli \(dialect.integer) NOT NULL,
        start_at \(dialect.integer) NOT NULL,
        end_at \(dialect.integer),
        period_source \(dialect.text) NOT NULL,
        refunds \(dialect.text) NOT NULL,
        last_change \(dialect.integer) NOT NULL\(distributed ? ",\nPRIMARY KEY (transaction_id, original_transaction_id)" : "")
        """
    }

    /// The kept sales by their last change, with what the as-of's month needs of them: the sales in flight are the
    /// index's last entries, read in one range without visiting the table.
    package static let recognitionSalesByLastChange = """
        CREATE INDEX IF NOT EXISTS recognition_sales_by_last_change ON recognition_sales(
            last_change, product_id, currency, amount_milli, start_at, end_at, period_source, refunds);
        """

    /// The kept sales, and `recognition_months`: every kept sale's whole life summed by month, billed month, product
    /// and currency (``RecognitionMonth``), which a report reads for the months before its as-of's.
    package static let recognitionKept = """
        CREATE TABLE IF NOT EXISTS recognition_sales (
        \(recognitionSalesColumns(distributed: false))
        ) WITHOUT ROWID;
        \(recognitionSalesByLastChange)
        CREATE TABLE recognition_months (
            month INTEGER NOT NULL,
            billed_month INTEGER NOT NULL,
            product_id TEXT NOT NULL,
            currency TEXT NOT NULL,
            sales INTEGER NOT NULL,
            billings_milli INTEGER NOT NULL,
            recognized_milli INTEGER NOT NULL,
            released_milli INTEGER NOT NULL,
            reversed_milli INTEGER NOT NULL,
            PRIMARY KEY (month, billed_month, product_id, currency)
        ) WITHOUT ROWID;
        """
}
