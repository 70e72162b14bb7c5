/// What the last report showed, per transaction, day, product and currency: the baseline of
/// `revenue_changes.csv`.
///
/// Kept in transaction id order, the order detection reads the store in, so a report compares
/// it with what it counts now in one pass (memory for one transaction), and stages the next
/// baseline the same way; the staged baseline replaces this one only once the report is written.
extension ReconStore {
    /// The lines (day, product, currency) the latest report showed; empty before the first report.
    func revenueShownLines() throws(StoreError) -> [RevenueLine] {
        let stmt = try db.prepare("SELECT date, product_id, currency FROM revenue_shown_lines")
        var lines: [RevenueLine] = []
        while try stmt.step() {
            lines.append(RevenueLine(date: stmt.text(0), productID: stmt.text(1), currency: stmt.text(2)))
        }
        return lines
    }

    /// The contributions the latest report showed, in transaction id order (then day, product,
    /// currency), read one at a time.
    func revenueShownCursor() throws(StoreError) -> RevenueShownCursor {
        try RevenueShownCursor(
            try db.prepare(
                """
                SELECT \(RevenueShownRow.columns) FROM revenue_shown_by_transaction
                ORDER BY transaction_id, date, product_id, currency
                """))
    }

    /// Starts staging the next baseline (an empty staging table; an unfinished one is dropped).
    func stageRevenueShown() throws(StoreError) -> RevenueShownStaging {
        try db.execute(
            """
            DROP TABLE IF EXISTS revenue_shown_staged;
            DROP TABLE IF EXISTS revenue_shown_lines_staged;
            CREATE TABLE revenue_shown_staged (
                transaction_id TEXT NOT NULL, date TEXT NOT NULL, product_id TEXT NOT NULL, currency TEXT NOT NULL,
                gross_milli INTEGER NOT NULL, refunds_milli INTEGER NOT NULL,
                PRIMARY KEY (transaction_id, date, product_id, currency)
            ) WITHOUT ROWID;
            CREATE TABLE revenue_shown_lines_staged (
                date TEXT NOT NULL, product_id TEXT NOT NULL, currency TEXT NOT NULL,
                PRIMARY KEY (date, product_id, currency)
            ) WITHOUT ROWID;
            """, context: "staging the revenue shown")
        return RevenueShownStaging(
            db: db,
            insert: try db.prepare(
                """
                INSERT INTO revenue_shown_staged
                    (transaction_id, date, product_id, currency, gross_milli, refunds_milli)
                VALUES (?, ?, ?, ?, ?, ?)
                """),
            insertLine: try db.prepare(
                "INSERT OR IGNORE INTO revenue_shown_lines_staged (date, product_id, currency) VALUES (?, ?, ?)"))
    }

    /// Makes the staged baseline the baseline of the next report (nothing when none is staged).
    public func promoteStagedRevenueShown() throws {
        try write {
            let staged = try db.scalar(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'revenue_shown_staged'")
            guard staged == 1 else { return }
            try db.execute(
                """
                DROP TABLE revenue_shown_by_transaction;
                DROP TABLE revenue_shown_lines;
                ALTER TABLE revenue_shown_staged RENAME TO revenue_shown_by_transaction;
                ALTER TABLE revenue_shown_lines_staged RENAME TO revenue_shown_lines;
                """, context: "replacing the revenue shown")
        }
    }

    /// Whether the transaction's refund or revocation reached the store through the
    /// notification-history sweep.
    func refundLearnedBySweep() throws(StoreError) -> (String) throws(StoreError) -> Bool {
        let stmt = try db.prepare(
            """
            SELECT 1 FROM notifications
            WHERE transaction_id = ? AND source = 'history' AND notification_type IN ('REFUND', 'REVOKE') LIMIT 1
            """)
        return { (transactionID: String) throws(StoreError) -> Bool in
            try stmt.bind([.text(transactionID)])
            defer { try? stmt.bind([]) }
            return try stmt.step()
        }
    }
}

/// The previous baseline, one contribution at a time in transaction id order.
final class RevenueShownCursor {
    private let statement: SQLiteStatement
    /// The contribution under the cursor; nil once every one was read.
    private(set) var current: RevenueContribution?

    init(_ statement: SQLiteStatement) throws(StoreError) {
        self.statement = statement
        try advance()
    }

    /// Moves to the next contribution.
    func advance() throws(StoreError) {
        current = try statement.step() ? RevenueShownRow.contribution(statement) : nil
    }
}

/// The next baseline as a report counts it, written while detection runs.
///
/// One write transaction for the whole baseline: the staging tables are the report's own until
/// they are promoted, and a commit every few thousand rows made the write-ahead log checkpoint
/// over and over while detection was reading.
final class RevenueShownStaging {
    private let db: SQLiteDatabase
    private let insert: SQLiteStatement
    private let insertLine: SQLiteStatement
    private var inTransaction = false

    fileprivate init(db: SQLiteDatabase, insert: SQLiteStatement, insertLine: SQLiteStatement) {
        self.db = db
        self.insert = insert
        self.insertLine = insertLine
    }

    deinit {
        if inTransaction { try? db.execute("ROLLBACK") }
    }

    /// Stages one transaction's contribution to one line.
    func add(_ item: RevenueContribution) throws(StoreError) {
        if !inTransaction {
            try db.execute("BEGIN IMMEDIATE", context: "staging the revenue shown")
            inTransaction = true
        }
        // Bound one by one: no array of values per row. Each transaction stages at most one
        // contribution per line, so the key is new (a plain INSERT).
        try insert.bindText(item.key.transactionID, at: 1)
        try insert.bindText(item.key.date, at: 2)
        try insert.bindText(item.key.productID, at: 3)
        try insert.bindText(item.key.currency, at: 4)
        try insert.bindInt64(item.gross, at: 5)
        try insert.bindInt64(item.refunds, at: 6)
        try insert.runBound()
    }

    /// Stages the lines the report shows (once each, at the end).
    func addLines(_ lines: some Sequence<RevenueLine>) throws(StoreError) {
        if !inTransaction {
            try db.execute("BEGIN IMMEDIATE", context: "staging the revenue shown")
            inTransaction = true
        }
        for line in lines { try insertLine.run([.text(line.date), .text(line.productID), .text(line.currency)]) }
    }

    /// Commits what is staged so far.
    func commit() throws(StoreError) {
        guard inTransaction else { return }
        try db.execute("COMMIT", context: "staging the revenue shown")
        inTransaction = false
    }
}
