/// What revenue recognition keeps between reports (CONTRACT §5.1): the roll-forward the latest report showed.
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
}
