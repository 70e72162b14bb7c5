import AppleData
import ReconModel

/// This run's findings, kept in the store as detection finds them, so a run with many findings never holds them in
/// memory: detection adds them to a temporary table (``SQLRunFindingSpool``), the history is recorded from it in SQL,
/// and the report files stream them back in report order.
extension SQLFindings {
    /// Starts this run's findings afresh (an earlier run's temporary table on this connection is dropped).
    ///
    /// From here temporary tables and sorts go to temporary files (`temp_store=FILE`), not memory: the findings and
    /// the sorts of detection and the report grow with the ledger, the report's memory must not.
    package func startRunFindings() throws(StoreError) -> any RunFindingSpool {
        try db.pragma("temp_store = FILE", context: "keeping this run's findings")
        let (text, integer) = (db.dialect.text, db.dialect.integer)
        try db.execute(
            [
                "DROP TABLE IF EXISTS run_findings",
                """
                CREATE TEMP TABLE run_findings (
                    fingerprint \(text) NOT NULL UNIQUE, severity_rank \(integer) NOT NULL, code \(text) NOT NULL,
                    transaction_id \(text) NOT NULL, original_transaction_id \(text), user_ids \(text) NOT NULL,
                    product_id \(text), environment \(text), amount_milli \(integer), currency \(text),
                    detail \(text) NOT NULL, record_ids \(text) NOT NULL, receipt_id \(text), subject \(text),
                    aged_before \(text), aged_since \(integer), aged_after \(text), known_first_seen_at \(integer),
                    unchanged \(integer)
                )
                """,
            ], context: "keeping this run's findings")
        return SQLRunFindingSpool(
            db: db,
            insert: try db.prepare(
                RowInsert(
                    into: "run_findings",
                    [
                        "fingerprint", "severity_rank", "code", "transaction_id", "original_transaction_id", "user_ids",
                        "product_id", "environment", "amount_milli", "currency", "detail", "record_ids", "receipt_id",
                        "subject", "aged_before", "aged_since", "aged_after",
                    ], onConflict: .doNothing(target: nil))))
    }

    /// Records this run's findings (``startRunFindings()``) in the history: new ones are inserted, changed ones
    /// rewritten, and previously open findings absent now are marked resolved; an open finding that reads the same is
    /// not written again (``Schema/findingsRecorded``).
    ///
    /// An open finding keeps its first sighting; a resolved one found again starts anew.
    ///
    /// The run and its time are bound once, in the rows inserted, and the update reads them from `excluded`: Citus
    /// sends an `INSERT … SELECT`'s `ON CONFLICT` clause to the workers without its parameters.
    public func recordRunFindings(runID: Int64, at time: Int64) throws -> FindingTotals {
        try write {
            try lookUpFirstSightings(comparing: true)
            try db.prepare(
                """
                INSERT INTO findings (fingerprint, code, severity, transaction_id, original_transaction_id, user_ids,
                    product_id, environment, amount_milli, currency, detail, record_ids, receipt_id, first_seen_run,
                    first_seen_at, last_seen_run, last_seen_at, resolved_run, resolved_at, subject, aged_before,
                    aged_since, aged_after)
                SELECT fingerprint, code, \(Self.severityName("code")), transaction_id, original_transaction_id,
                    replace(user_ids, '\(RunFindingsRow.userSeparator)', ' '), product_id, environment, amount_milli, currency,
                    CASE WHEN aged_since IS NULL THEN detail ELSE '' END, record_ids, receipt_id, $1, $2, $1, $2,
                    NULL, NULL, subject, aged_before, aged_since, aged_after
                FROM run_findings WHERE unchanged IS DISTINCT FROM 1
                ORDER BY severity_rank, code, transaction_id, fingerprint
                ON CONFLICT (fingerprint) DO UPDATE SET code = excluded.code, severity = excluded.severity,
                    transaction_id = excluded.transaction_id, original_transaction_id = excluded.original_transaction_id,
                    user_ids = excluded.user_ids, product_id = excluded.product_id, environment = excluded.environment,
                    amount_milli = excluded.amount_milli, currency = excluded.currency, detail = excluded.detail,
                    record_ids = excluded.record_ids, receipt_id = excluded.receipt_id,
                    last_seen_run = excluded.last_seen_run, last_seen_at = excluded.last_seen_at, resolved_run = NULL,
                    resolved_at = NULL, subject = excluded.subject,
                    aged_before = excluded.aged_before, aged_since = excluded.aged_since,
                    aged_after = excluded.aged_after,
                    first_seen_run = CASE WHEN findings.resolved_at IS NULL THEN findings.first_seen_run
                        ELSE excluded.first_seen_run END,
                    first_seen_at = CASE WHEN findings.resolved_at IS NULL THEN findings.first_seen_at
                        ELSE excluded.first_seen_at END
                """
            ).run([.integer(runID), .integer(time)])
            // An unchanged finding has the users it was written with; the others' are split from their list.
            // The first user id is NULL typed as the list (`NULLIF`): PostgreSQL wants one collation through the
            // recursion.
            let separator = RunFindingsRow.userSeparator
            let find = db.dialect.position(of: "'\(separator)'", in: "rest")
            try db.execute(
                """
                INSERT INTO finding_users (fingerprint, user_id)
                WITH RECURSIVE split(fingerprint, rest, user_id) AS (
                    SELECT fingerprint, user_ids || '\(separator)', NULLIF(user_ids, user_ids) FROM run_findings
                    WHERE unchanged IS DISTINCT FROM 1 AND user_ids <> ''
                    UNION ALL
                    SELECT fingerprint, substr(rest, \(find) + 1), substr(rest, 1, \(find) - 1)
                    FROM split WHERE rest <> ''
                )
                SELECT fingerprint, user_id FROM split WHERE user_id IS NOT NULL
                ON CONFLICT DO NOTHING
                """, context: "recording the findings' users")
            // Open until now, so last seen by the latest recording before this one.
            try db.prepare(
                """
                UPDATE findings SET resolved_run = $1, resolved_at = $2,
                    last_seen_run = COALESCE((SELECT run FROM findings_recorded), last_seen_run),
                    last_seen_at = COALESCE((SELECT at FROM findings_recorded), last_seen_at)
                WHERE resolved_at IS NULL AND fingerprint NOT IN (SELECT fingerprint FROM run_findings)
                """
            ).run([.integer(runID), .integer(time)])
            try db.prepare(
                "INSERT INTO findings_recorded (id, run, at) VALUES (1, $1, $2) ON CONFLICT (id) DO UPDATE SET run = $1, at = $2"
            )
            .run([.integer(runID), .integer(time)])
            var totals = try runFindingTotals()
            totals.resolved = Int(
                try db.scalar(
                    """
                    SELECT COUNT(*) FROM findings
                    WHERE resolved_run = $1 AND resolved_at = $2 AND code IN (\(Self.knownCodes))
                    """, [.integer(runID), .integer(time)]) ?? 0)
            return totals
        }
    }

    /// This run's findings with the history the store already has for them, recording nothing: for a report whose
    /// `--as-of` is earlier than the latest recorded (the history belongs to the latest as-of).
    public func lookUpRunFindings() throws -> FindingTotals {
        try lookUpFirstSightings(comparing: false)
        return try runFindingTotals()
    }

    /// This run's findings in report order (``Finding/reportOrder(_:_:)``) with their history at `time` (the
    /// run's as-of): first seen when the store first saw them open, else now.
    public func forEachRunFinding(at time: Int64, _ body: (FindingHistory) throws -> Void) throws {
        let statement = try db.prepare(
            """
            SELECT \(RunFindingsRow.columns) FROM run_findings r
            ORDER BY r.severity_rank, r.code, r.transaction_id, r.fingerprint
            """)
        try statement.bind([.integer(time)])
        while try statement.step() {
            guard let history = RunFindingsRow.read(statement) else { continue }
            try body(history)
        }
    }

    /// The findings this run resolved (``recordRunFindings(runID:at:)``), in report order.
    public func forEachFindingResolved(runID: Int64, at time: Int64, _ body: (FindingHistory) throws -> Void) throws {
        let statement = try db.prepare(
            """
            SELECT \(FindingsRow.columns) FROM findings f
            WHERE f.resolved_run = $1 AND f.resolved_at = $2 AND f.code IN (\(Self.knownCodes))
            ORDER BY \(Self.severityRank("f.code")), f.code, f.transaction_id, f.fingerprint
            """)
        try statement.bind([.integer(runID), .integer(time)])
        while try statement.step() {
            guard let history = FindingsRow.read(statement) else { continue }
            try body(history)
        }
    }

    /// The first sighting of every spooled finding that is open in the history.
    ///
    /// `comparing`: also whether the history holds it as it reads now (`unchanged`), so recording need not write it
    /// again. A finding that states an age reads the same while its words around the age do: the history words it
    /// again when read (``FindingsRow``).
    private func lookUpFirstSightings(comparing: Bool) throws(StoreError) {
        let same = [
            "f.code = r.code", "f.severity = \(Self.severityName("r.code"))", "f.transaction_id = r.transaction_id",
            "f.original_transaction_id IS NOT DISTINCT FROM r.original_transaction_id",
            "f.user_ids = replace(r.user_ids, '\(RunFindingsRow.userSeparator)', ' ')",
            "f.product_id IS NOT DISTINCT FROM r.product_id",
            "f.environment IS NOT DISTINCT FROM r.environment", "f.amount_milli IS NOT DISTINCT FROM r.amount_milli",
            "f.currency IS NOT DISTINCT FROM r.currency",
            "f.record_ids = r.record_ids", "f.receipt_id IS NOT DISTINCT FROM r.receipt_id",
            "f.subject IS NOT DISTINCT FROM r.subject",
            // A detail that states an age reads the same while its words around the age do.
            "f.aged_since IS NOT DISTINCT FROM r.aged_since", "f.aged_before IS NOT DISTINCT FROM r.aged_before",
            "f.aged_after IS NOT DISTINCT FROM r.aged_after",
            "(r.aged_since IS NOT NULL OR f.detail = r.detail)",
        ].joined(separator: " AND ")
        // A join, not a subquery per spooled finding: PostgreSQL ran the subquery once per row (1.4 s for a night's
        // findings at 1,000,000 rows). A finding with no open history keeps NULL in both.
        try db.execute(
            [
                """
                UPDATE run_findings SET known_first_seen_at = NULL, unchanged = NULL
                    WHERE known_first_seen_at IS NOT NULL OR unchanged IS NOT NULL
                """,
                """
                UPDATE run_findings AS r SET known_first_seen_at = f.first_seen_at,
                    unchanged = \(comparing ? "CASE WHEN \(same) THEN 1 ELSE 0 END" : "NULL")
                    FROM findings AS f
                    WHERE f.fingerprint = r.fingerprint AND f.resolved_at IS NULL
                """,
            ], context: "looking up the findings' history")
    }

    /// Counts, new ones and amounts at stake of the spooled findings.
    private func runFindingTotals() throws(StoreError) -> FindingTotals {
        let statement = try db.prepare(
            """
            SELECT code AS code, amount_milli AS amount_milli, currency AS currency,
                known_first_seen_at IS NULL AS is_new, severity_rank AS severity_rank
            FROM run_findings
            """)
        var totals = FindingTotals()
        while try statement.step() {
            let row = SQLRow(statement, table: "run_findings")
            guard let code = FindingCode(rawValue: row.text("code")) else { continue }
            let rank = row.int64("severity_rank")
            totals.add(
                code, amount: row.money("amount_milli", "currency"), isNew: row.int64("is_new") != 0,
                severity: Severity.allCases.first { Int64($0.rank) == rank })
        }
        return totals
    }

    /// The codes this program knows, as an SQL list.
    private static let knownCodes = FindingCode.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")

    /// An SQL expression: the severity rank (``Severity/rank``) of the code in `column`.
    ///
    /// The environment is read from the column named like `column` with `environment` for `code` (``Finding`` rows
    /// keep both): an unreported Sandbox token is `low` (``FindingCode/severity(in:)``).
    package static func severityRank(_ column: String) -> String {
        "CASE " + environmentCases(column) { "\($0.rank)" } + "ELSE CASE \(column) "
            + FindingCode.allCases.map { "WHEN '\($0.rawValue)' THEN \($0.severity.rank) " }.joined() + "ELSE 9 END END"
    }

    /// The `WHEN` arms of the codes whose severity depends on the environment.
    private static func environmentCases(_ column: String, _ value: (Severity) -> String) -> String {
        let environment = column.replacingOccurrences(of: "code", with: "environment")
        return FindingCode.environmentSeverities.map {
            "WHEN \(column) = '\($0.code.rawValue)' AND \(environment) = '\($0.environment)' THEN \(value($0.severity)) "
        }.joined()
    }

    /// An SQL expression: the severity name of the code in `column`.
    package static func severityName(_ column: String) -> String {
        "CASE " + environmentCases(column) { "'\($0.rawValue)'" } + "ELSE CASE \(column) "
            + FindingCode.allCases.map { "WHEN '\($0.rawValue)' THEN '\($0.severity.rawValue)' " }.joined()
            + "ELSE NULL END END"
    }
}

/// Adds this run's findings to the store as detection finds them; the first of two with the same fingerprint is kept.
///
/// Findings are written in batches, inside a transaction when one is open, else in one of their own (a temporary
/// table: nothing of the main database is locked).
package final class SQLRunFindingSpool {
    private let db: any StoreDatabase
    private let insert: any StoreStatement
    private var pending: [Finding] = []

    /// Findings written at a time.
    package static let batchSize = 1024

    fileprivate init(db: any StoreDatabase, insert: any StoreStatement) {
        self.db = db
        self.insert = insert
        pending.reserveCapacity(Self.batchSize)
    }

    /// Adds `finding` unless one with its fingerprint is already in.
    package func add(_ finding: Finding) throws {
        pending.append(finding)
        if pending.count == Self.batchSize { try flush() }
    }

    /// Writes what is still held; call once detection is done.
    package func flush() throws {
        guard !pending.isEmpty else { return }
        let findings = pending
        pending.removeAll(keepingCapacity: true)
        if db.isInTransaction {
            try write(findings)
        } else {
            try db.execute("BEGIN", context: "keeping this run's findings")
            do {
                try write(findings)
                try db.execute("COMMIT", context: "keeping this run's findings")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
    }

    private func write(_ findings: [Finding]) throws(StoreError) {
        for finding in findings {
            try Self.bind(finding, fingerprint: finding.fingerprint, to: insert, from: 1)
            try Self.bind(finding.aged, to: insert, from: 15)
            try insert.runBound()
        }
    }

    /// Binds the words around a finding's age (`aged_before`, `aged_since`, `aged_after`) from parameter `first` on;
    /// NULLs for a finding that states no age.
    package static func bind(_ aged: AgedText?, to insert: any StoreStatement, from first: Int32) throws(StoreError) {
        guard let aged else {
            for index in first...(first + 2) { try insert.bindNull(at: index) }
            return
        }
        try insert.bindText(aged.before, at: first)
        try insert.bindInt64(aged.since, at: first + 1)
        try insert.bindText(aged.after, at: first + 2)
    }

    /// Binds the finding's 14 columns (fingerprint, severity rank, code, transaction id, original transaction id,
    /// users, product, environment, amount, currency, detail, records, receipt, subject) from parameter `first` on,
    /// one by one: no array of values per finding.
    package static func bind(
        _ finding: Finding, fingerprint: String, to insert: any StoreStatement, from first: Int32
    ) throws(StoreError) {
        func bind(_ text: String?, at index: Int32) throws(StoreError) {
            if let text {
                try insert.bindText(text, at: first + index - 1)
            } else {
                try insert.bindNull(at: first + index - 1)
            }
        }
        try insert.bindText(fingerprint, at: first)
        try insert.bindInt64(Int64(finding.severity.rank), at: first + 1)
        try insert.bindText(finding.code.rawValue, at: first + 2)
        try insert.bindText(finding.transactionID, at: first + 3)
        try bind(finding.originalTransactionID, at: 5)
        try insert.bindText(finding.userIDs.joined(separator: RunFindingsRow.userSeparator), at: first + 5)
        try bind(finding.productID, at: 7)
        try bind(finding.environment?.rawValue, at: 8)
        if let amount = finding.amount {
            try insert.bindInt64(amount.milliunits, at: first + 8)
            try insert.bindText(amount.currency, at: first + 9)
        } else {
            try insert.bindNull(at: first + 8)
            try insert.bindNull(at: first + 9)
        }
        try insert.bindText(finding.detail, at: first + 10)
        try insert.bindText(finding.recordIDs.joined(separator: " "), at: first + 11)
        try bind(finding.receiptID, at: 13)
        try bind(finding.subject, at: 14)
    }
}
