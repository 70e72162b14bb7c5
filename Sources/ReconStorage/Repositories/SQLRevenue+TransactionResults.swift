import AppleData
import ReconModel

/// Each transaction's share of the report, as detection works it out, kept for the next report (CONTRACT §5
/// "Incremental reports").
///
/// A report that judges every transaction stages a whole new set of tables, which replaces the kept one once the
/// report is written; a report that judges only some writes theirs to temporary tables, merged over the kept ones
/// then. Until then the kept tables stay what the last written report showed, so a report that fails changes
/// nothing the next one builds on.
extension SQLRevenue {
    /// Where this report's results go: `everything` replaces the kept tables; otherwise only the transactions of
    /// `temp.rerun` are replaced.
    package func startTransactionResults(everything: Bool) throws(StoreError) -> any TransactionResultsWriter {
        func table(_ name: String) -> String { everything ? name + "_staged" : "new_" + name }
        func rows(_ insert: RowInsert) throws(StoreError) -> any StoreStatement {
            everything ? try db.prepareRows(insert) : try db.prepare(insert)
        }
        try db.pragma("temp_store = FILE", context: "keeping the results")
        for name in Schema.resultTables.map(\.name) {
            try db.execute(
                [
                    "DROP TABLE IF EXISTS \(table(name))",
                    "\(Schema.create(name, as: table(name), temporary: !everything, dialect: db.dialect))",
                ],
                context: "keeping the results")
        }
        try db.execute(
            [
                "DROP TABLE IF EXISTS revenue_parts_spool",
                "DROP TABLE IF EXISTS dirty_lines",
                """
                CREATE TEMP TABLE dirty_lines (
                    day \(db.dialect.integer) NOT NULL, product_id \(db.dialect.text) NOT NULL,
                    currency \(db.dialect.text) NOT NULL, PRIMARY KEY (day, product_id, currency)
                )\(db.dialect.withoutRowID)
                """,
            ], context: "keeping the results")
        // Every transaction's parts, judged in transaction id order, belong all over a table kept in line order: a
        // report judging everything appends them to a heap and sorts them into their table once at the end
        // (``Self/partsSpool``).
        let parts = everything ? "revenue_parts_spool" : table("revenue_parts")
        if everything {
            try db.execute(
                "CREATE TEMP TABLE revenue_parts_spool AS SELECT * FROM \(table("revenue_parts")) WHERE false",
                context: "keeping the results")
        }
        return SQLTransactionResultsWriter(
            db: db, everything: everything,
            insertResult: try db.prepare(
                RowInsert(
                    into: table("transaction_results"),
                    [
                        "transaction_id", "next_change_at", "excluded_currency", "excluded_milli", "recovered_currency",
                        "recovered_milli", "unpriced", "duplicates", "original_transaction_id",
                    ])),
            insertFinding: try db.prepare(insertKeptFinding(into: table("transaction_findings"))),
            // Judging everything, nothing reads the parts, the events or the sales before the commit: they go many
            // rows to a statement (``StoreDatabase/prepareRows(_:)``).
            insertPart: try rows(
                RowInsert(
                    into: parts,
                    [
                        "transaction_id", "seq", "day", "product_id", "currency", "units", "gross_milli",
                        "refunds_milli", "rate_ppm", "net_milli", "stated_milli", "stated_currency", "stated_source",
                        "original_transaction_id",
                    ])),
            insertOriginalResult: try db.prepare(
                RowInsert(into: table("original_results"), ["original_transaction_id", "next_change_at"])),
            insertOriginalFinding: try db.prepare(insertKeptFinding(into: table("original_findings"))),
            insertLine: try db.prepare(
                RowInsert(
                    into: table("revenue_lines"),
                    [
                        "day", "product_id", "currency", "units", "gross_milli", "refunds_milli", "estimated_milli",
                        "proceeds_milli", "proceeds_currency", "proceeds_source",
                    ])),
            insertEvent: try rows(
                RowInsert(
                    into: table("ledger_events"),
                    [
                        "transaction_id", "seq", "day", "record_id", "user_id", "product_id", "storefront", "currency",
                        "units", "amount_milli", "proceeds_milli", "proceeds_currency", "rate_ppm",
                        "original_transaction_id",
                    ])),
            insertSale: try rows(Self.insertSale(into: table("recognition_sales"))),
            sortSpooledParts: everything ? Self.partsSpool(into: table("revenue_parts")) : nil)
    }

    /// Moves the parts a report judging everything spooled (`temp.revenue_parts_spool`, in transaction id order)
    /// into `table`, in the table's key order (line, then transaction), in one pass.
    ///
    /// Written in place one transaction at a time, each part went to the page of its line: a random page of the
    /// table, with a line per day, product and currency. With the connection's page cache far smaller than a page
    /// per line, nearly every part read a page back from the write-ahead log and wrote one to it: at 1,000,000 rows
    /// about a million `pread` and a million `pwrite` of 16 KB, 17 GB each way through the kernel; at 10,000,000,
    /// hundreds of GB. Sorted (SQLite's sorter spills runs to temporary files), every page is written once.
    private static func partsSpool(into table: String) -> [String] {
        [
            """
            INSERT INTO \(table) SELECT * FROM revenue_parts_spool
                ORDER BY day, product_id NULLS FIRST, currency NULLS FIRST, transaction_id NULLS FIRST, seq
            """,
            "DROP TABLE revenue_parts_spool",
        ]
    }

    /// Replaces the kept findings of the groups judged again (`rerun` selects their ids) whose findings changed, with
    /// this report's (`temp.new_<table>`); a group whose findings read the same is not rewritten.
    private static func replaceChangedFindings(_ table: String, rerun: String) -> [String] {
        [
            """
            CREATE TEMP TABLE changed_findings AS
                SELECT group_id FROM (
                    SELECT * FROM \(table) WHERE group_id IN (\(rerun)) EXCEPT SELECT * FROM new_\(table)) AS gone
                UNION SELECT group_id FROM (
                    SELECT * FROM new_\(table) EXCEPT SELECT * FROM \(table) WHERE group_id IN (\(rerun))) AS came
            """,
            "DELETE FROM \(table) WHERE group_id IN (SELECT group_id FROM changed_findings)",
            "INSERT INTO \(table) SELECT * FROM new_\(table) WHERE group_id IN (SELECT group_id FROM changed_findings)",
            "DROP TABLE changed_findings",
        ]
    }

    /// The insert of a kept finding (``Schema/keptFindingColumns(distributed:)``) into `table`.
    private func insertKeptFinding(into table: String) -> RowInsert {
        RowInsert(
            into: table,
            [
                "group_id", "seq", "fingerprint", "severity_rank", "code", "transaction_id", "original_transaction_id",
                "user_ids", "product_id", "environment", "amount_milli", "currency", "detail", "record_ids",
                "receipt_id",
                "subject", "aged_before", "aged_since", "aged_after", "group_original_transaction_id",
            ])
    }

    /// Makes this report's results the kept ones, with the state they were worked out in.
    ///
    /// The transactions judged are no longer "changed since the last report". Call once the report is written.
    /// `recognitionMonths` replaces the kept sums of every sale's life by month.
    package func keepTransactionResults(
        everything: Bool, state: DetectionState, samePurchase: [String: String],
        recognitionMonths: [RecognitionMonth: RecognitionMonthSums], schedule: RevenueScheduleRecord?
    ) throws {
        try write {
            if everything {
                // SQLite swaps the staged tables in and builds their indexes. PostgreSQL copies their rows into the
                // kept tables instead: a reader (`lookup`, `serve`) never waits on the exclusive lock that dropping a
                // table takes, and reads the old rows until the commit (MVCC).
                let swaps =
                    db.dialect == .sqlite
                    ? Schema.resultTables.flatMap { table in
                        ["DROP TABLE \(table.name)", "ALTER TABLE \(table.name)_staged RENAME TO \(table.name)"]
                    } + [Schema.resultIndexes]
                    : Schema.resultTables.flatMap { table in
                        [
                            "DELETE FROM \(table.name)",
                            "INSERT INTO \(table.name) SELECT * FROM \(table.name)_staged",
                            "DROP TABLE \(table.name)_staged",
                        ]
                    }
                try db.execute(
                    swaps + [
                        "DROP TABLE IF EXISTS revenue_shown_by_transaction",
                        "DROP TABLE IF EXISTS revenue_shown_lines",
                        "DELETE FROM dirty_transactions",
                        "DELETE FROM dirty_originals",
                        "DELETE FROM dirty_report_days",
                    ], context: "keeping the results")
            } else {
                try db.execute(
                    [
                        "DELETE FROM transaction_results WHERE transaction_id IN (SELECT transaction_id FROM rerun)",
                        "INSERT INTO transaction_results SELECT * FROM new_transaction_results",
                    ]
                        + Self.replaceChangedFindings("transaction_findings", rerun: "SELECT transaction_id FROM rerun")
                        + [
                            "DELETE FROM revenue_parts WHERE transaction_id IN (SELECT transaction_id FROM changed_parts)",
                            """
                            INSERT INTO revenue_parts SELECT * FROM new_revenue_parts
                                WHERE transaction_id IN (SELECT transaction_id FROM changed_parts)
                            """,
                            """
                            DELETE FROM revenue_lines
                                WHERE (day, product_id, currency) IN (SELECT day, product_id, currency FROM dirty_lines)
                            """,
                            "INSERT INTO revenue_lines SELECT * FROM new_revenue_lines",
                            "DELETE FROM ledger_events WHERE transaction_id IN (SELECT transaction_id FROM rerun)",
                            "INSERT INTO ledger_events SELECT * FROM new_ledger_events",
                            "DELETE FROM recognition_sales WHERE transaction_id IN (SELECT transaction_id FROM rerun)",
                            "INSERT INTO recognition_sales SELECT * FROM new_recognition_sales",
                            "DELETE FROM dirty_report_days",
                            "DELETE FROM dirty_transactions WHERE transaction_id IN (SELECT transaction_id FROM rerun)",
                            """
                            DELETE FROM original_results
                                WHERE original_transaction_id IN (SELECT original_transaction_id FROM rerun_originals)
                            """,
                            "INSERT INTO original_results SELECT * FROM new_original_results",
                        ]
                        + Self.replaceChangedFindings(
                            "original_findings", rerun: "SELECT original_transaction_id FROM rerun_originals")
                        + [
                            """
                            DELETE FROM dirty_originals
                                WHERE original_transaction_id IN (SELECT original_transaction_id FROM rerun_originals)
                            """
                        ], context: "keeping the results")
            }
            try db.prepare(
                """
                INSERT INTO detection_state (id, fingerprint, as_of, counters) VALUES (1, $1, $2, $3)
                ON CONFLICT (id) DO UPDATE SET fingerprint = $1, as_of = $2, counters = $3
                """
            ).run([.text(state.fingerprint), .integer(state.asOf), .text(StoredCounters(state.counters).json)])
            try replaceRecognitionMonths(recognitionMonths)
            try replaceRevenueScheduleRecord(schedule)
            try db.execute("DELETE FROM same_purchase_shown", context: "keeping the results")
            let insert = try db.prepare(RowInsert(into: "same_purchase_shown", ["transaction_id", "purchase"]))
            for (id, purchase) in samePurchase { try insert.run([.text(id), .text(purchase)]) }
        }
    }

    /// Adds the kept findings of every transaction not judged again, and this report's of those judged again, to
    /// this run's findings (``startRunFindings()``), in transaction id order as a whole detection finds them.
    package func spoolKeptFindings(asOf: Int64) throws(StoreError) {
        try spoolKeptFindings(
            kept: "transaction_findings", judged: "new_transaction_findings", rerun: "rerun", asOf: asOf)
    }

    /// The same for the original-transaction groups, after the transactions' (``spoolKeptFindings(asOf:)``).
    package func spoolKeptOriginalFindings(asOf: Int64) throws(StoreError) {
        try spoolKeptFindings(
            kept: "original_findings", judged: "new_original_findings", rerun: "rerun_originals",
            asOf: asOf)
    }

    private func spoolKeptFindings(kept: String, judged: String, rerun: String, asOf: Int64) throws(StoreError) {
        let columns = """
            fingerprint, severity_rank, code, transaction_id, original_transaction_id, user_ids, product_id,
            environment, amount_milli, currency, detail, record_ids, receipt_id, subject, aged_before, aged_since,
            aged_after
            """
        let selected = columns.replacingOccurrences(
            of: "currency, detail,", with: "currency, \(AgedDetailSQL.detail(asOf: String(asOf))),")
        try db.execute(
            """
            INSERT INTO run_findings (\(columns))
            SELECT \(selected) FROM (
                SELECT * FROM \(kept) WHERE group_id NOT IN (SELECT * FROM \(rerun))
                UNION ALL SELECT * FROM \(judged)) AS kept_and_judged
            WHERE true ORDER BY group_id, seq
            ON CONFLICT DO NOTHING;
            """, context: "keeping this run's findings")
    }

    /// What the transactions of `temp.rerun` added to the counts beside the revenue lines when last judged.
    package func keptCounters() throws(StoreError) -> [TransactionCounters] {
        let stmt = try db.prepare(
            """
            SELECT excluded_currency, excluded_milli, recovered_currency, recovered_milli, unpriced, duplicates
            FROM transaction_results WHERE transaction_id IN (SELECT transaction_id FROM rerun)
            """)
        var kept: [TransactionCounters] = []
        while try stmt.step() {
            kept.append(
                TransactionCounters(
                    excludedAsSandbox: stmt.optionalText(0).map { Money(milliunits: stmt.int64(1), currency: $0) },
                    recoveredFromSandbox: stmt.optionalText(2).map { Money(milliunits: stmt.int64(3), currency: $0) },
                    unpriced: stmt.int64(4) != 0, duplicateRowsIgnored: Int(stmt.int64(5))))
        }
        return kept
    }

    /// Marks as changed every line where a transaction of `temp.rerun` now adds other parts than it did
    /// (``temp.dirty_lines``), and returns them; the transactions whose parts changed go to `temp.changed_parts`.
    ///
    /// A transaction judged again only because its moment came (a finding's age) mostly adds what it added before:
    /// its lines need no adding up again, and its kept parts no rewriting.
    package func markDirtyLines() throws(StoreError) -> [(day: Int, productID: String, currency: String)] {
        try db.execute(
            [
                "DROP TABLE IF EXISTS changed_parts",
                """
                CREATE TEMP TABLE changed_parts AS
                    SELECT * FROM revenue_parts WHERE transaction_id IN (SELECT transaction_id FROM rerun)
                    EXCEPT SELECT * FROM new_revenue_parts
                """,
                """
                INSERT INTO changed_parts
                    SELECT * FROM new_revenue_parts
                    EXCEPT SELECT * FROM revenue_parts WHERE transaction_id IN (SELECT transaction_id FROM rerun)
                """,
                "INSERT INTO dirty_lines SELECT day, product_id, currency FROM changed_parts WHERE true ON CONFLICT DO NOTHING",
            ], context: "listing the changed revenue lines")
        let stmt = try db.prepare("SELECT day, product_id, currency FROM dirty_lines")
        var lines: [(day: Int, productID: String, currency: String)] = []
        while try stmt.step() { lines.append((Int(stmt.int64(0)), stmt.text(1), stmt.text(2))) }
        return lines
    }

    /// A reader of one line's parts at a time, added up by what the line's sums tell apart (rate, stated currency,
    /// source); its statements are prepared once for all the lines a report adds up again.
    ///
    /// The parts are the kept ones of transactions not judged again, and this report's; added up in SQL, a line of
    /// many sales is one read, and ``RevenueBuilder/row(day:productID:currency:parts:)`` adds parts in any order
    /// (a part here stands for all of its rate, stated currency and source). Where a sum overflows in SQL,
    /// the line's parts come one by one and the builder caps the sum, as a report judging everything does.
    package func linePartsReader() throws(StoreError) -> (Int, String, String) throws(StoreError) -> [RevenuePart] {
        let columns =
            "units, gross_milli, refunds_milli, rate_ppm, net_milli, stated_milli, stated_currency, stated_source"
        let parts = """
            SELECT \(columns) FROM revenue_parts
            WHERE day = $1 AND product_id = $2 AND currency = $3
                AND transaction_id NOT IN (SELECT transaction_id FROM rerun)
            UNION ALL
            SELECT \(columns) FROM new_revenue_parts WHERE day = $1 AND product_id = $2 AND currency = $3
            """
        let grouped = try db.prepare(
            """
            SELECT SUM(units), SUM(gross_milli), SUM(refunds_milli), rate_ppm, SUM(net_milli), SUM(stated_milli),
                stated_currency, stated_source
            FROM (\(parts)) AS parts GROUP BY rate_ppm, stated_currency, stated_source
            """)
        let oneByOne = try db.prepare(parts)
        func read(_ stmt: any StoreStatement, _ day: Int, _ productID: String, _ currency: String) throws(StoreError)
            -> [RevenuePart]
        {
            try stmt.bind([.integer(Int64(day)), .text(productID), .text(currency)])
            var found: [RevenuePart] = []
            while try stmt.step() {
                found.append(
                    RevenuePart(
                        day: day, productID: productID, currency: currency, units: stmt.int64(0),
                        gross: stmt.int64(1), refunds: stmt.int64(2), rate: stmt.int64(3), net: stmt.int64(4),
                        stated: stmt.optionalText(6).map { Money(milliunits: stmt.int64(5), currency: $0) },
                        statedSource: stmt.optionalText(7).flatMap(ProceedsSource.init(rawValue:))))
            }
            return found
        }
        return { (day, productID, currency) throws(StoreError) in
            do throws(StoreError) {
                return try read(grouped, day, productID, currency)
            } catch {
                // SQLite's SUM fails on overflow; PostgreSQL's is a numeric, refused when read as a 64-bit integer.
                switch error {
                case .sqlite(_, let message, _) where message.contains("integer overflow"): break
                case .postgres(_, let message, _) where message.contains("integer overflow"): break
                default: throw error
                }
                return try read(oneByOne, day, productID, currency)
            }
        }
    }

    /// The revenue lines as the last report showed them, but for the changed ones (``markDirtyLines()``), which come
    /// as this report added them up.
    package func revenueLinesKeptAndNew() throws(StoreError) -> [RevenueRow] {
        let stmt = try db.prepare(
            """
            SELECT * FROM revenue_lines
            WHERE (day, product_id, currency) NOT IN (SELECT day, product_id, currency FROM dirty_lines)
            UNION ALL SELECT * FROM new_revenue_lines
            """)
        var rows: [RevenueRow] = []
        while try stmt.step() {
            rows.append(
                RevenueRow(
                    day: Int(stmt.int64(0)), productID: stmt.text(1), currency: stmt.text(2), units: stmt.int64(3),
                    gross: stmt.int64(4), refunds: stmt.int64(5), estimatedProceeds: stmt.int64(6),
                    proceeds: stmt.int64(7), proceedsCurrency: stmt.text(8),
                    proceedsSource: ProceedsSource(rawValue: stmt.text(9)) ?? .estimate))
        }
        return rows.sorted { ($0.day, $0.productID, $0.currency) < ($1.day, $1.productID, $1.currency) }
    }
}
