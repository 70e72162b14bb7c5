import Foundation
import IAPReconTestSupport
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// What the store keeps for the next report (CONTRACT §5 "Incremental reports"): which changes it notes, and a store
/// of the previous version upgrading itself.
@Suite struct IncrementalStateTests {
    static let day: Int64 = 86_400_000
    static let asOf: Int64 = 1_795_176_000_000  // 2026-11-20T12:00:00Z

    /// Three purchases, and twenty more delivered and finished days earlier (so one night changes little of it).
    static let rows =
        [
            "r1,u1,coins_100,1001,2026-11-18T10:00:00Z,0.99,USD,verified,2026-11-18T10:00:05Z,2026-11-18T10:00:06Z",
            "r2,u2,coins_100,1002,2026-11-18T11:00:00Z,0.99,USD,verified,2026-11-18T11:00:05Z,2026-11-18T11:00:06Z",
            "r3,u3,coins_500,1003,2026-11-19T09:00:00Z,4.99,USD,verified,,",
        ]
        + (10..<30).map { n in
            "o\(n),u\(n),coins_100,9\(n),2026-11-0\(n % 9 + 1)T08:00:00Z,0.99,USD,verified,"
                + "2026-11-0\(n % 9 + 1)T08:00:01Z,2026-11-0\(n % 9 + 1)T08:00:02Z"
        }

    func dirty(_ fixture: LedgerFixture) throws -> [String] {
        let store = try ReconStore(path: fixture.dir.file("s.sqlite"))
        let stmt = try store.db.prepare("SELECT transaction_id FROM dirty_transactions ORDER BY 1")
        var ids: [String] = []
        while try stmt.step() { ids.append(stmt.text(0)) }
        return ids
    }

    func detect(_ run: [String: Any]) -> [String: Int] {
        let stages = run["stages"] as? [[String: Any]] ?? []
        return stages.first { $0["name"] as? String == "detect" }?["counts"] as? [String: Int] ?? [:]
    }

    @Test func onlyChangesToWhatDetectionReadsAreNoted() async throws {
        let fixture = LedgerFixture("incremental-dirty")
        try await fixture.importLedger(Self.rows)
        // Before the first report nothing is noted: it judges everything anyway.
        #expect(try dirty(fixture).isEmpty)
        _ = try await fixture.report(asOf: Self.asOf)
        // The same export again (a new import time, the same rows): nothing a report reads changed.
        try await fixture.importLedger(Self.rows)
        #expect(try dirty(fixture).isEmpty)
        // Delivered at last, and a new purchase.
        var changed = Self.rows
        changed[2] = "r3,u3,coins_500,1003,2026-11-19T09:00:00Z,4.99,USD,verified,2026-11-20T08:00:00Z,"
        changed.append("r4,u4,coins_100,1004,2026-11-20T09:00:00Z,0.99,USD,pending,,")
        try await fixture.importLedger(changed)
        #expect(try dirty(fixture) == ["1003", "1004"])
        let run = try await fixture.report(asOf: Self.asOf + Self.day)
        #expect(detect(run)["incremental"] == 1)
        #expect(detect(run)["transactions_judged"] == 2)
        #expect(try dirty(fixture).isEmpty)
    }

    /// What the version before kept results left beside its revenue baseline: none of the kept results.
    static let beforeKeptResults = """
        CREATE TABLE revenue_shown_by_transaction (
            transaction_id TEXT NOT NULL, date TEXT NOT NULL, product_id TEXT NOT NULL, currency TEXT NOT NULL,
            gross_milli INTEGER NOT NULL, refunds_milli INTEGER NOT NULL,
            PRIMARY KEY (transaction_id, date, product_id, currency)
        ) WITHOUT ROWID;
        INSERT INTO revenue_shown_by_transaction
            SELECT transaction_id, date(day * 86400, 'unixepoch'), product_id, currency, SUM(gross_milli),
                SUM(refunds_milli)
            FROM revenue_parts GROUP BY 1, 2, 3, 4;
        CREATE TABLE revenue_shown_lines (
            date TEXT NOT NULL, product_id TEXT NOT NULL, currency TEXT NOT NULL,
            PRIMARY KEY (date, product_id, currency)
        ) WITHOUT ROWID;
        INSERT INTO revenue_shown_lines SELECT DISTINCT date, product_id, currency FROM revenue_shown_by_transaction;
        DROP TABLE detection_state; DROP TABLE dirty_transactions; DROP TABLE transaction_results;
        DROP TABLE transaction_findings; DROP TABLE revenue_parts; DROP TABLE revenue_lines;
        DROP TABLE same_purchase_shown; DROP TABLE dirty_originals; DROP TABLE original_results;
        DROP TABLE original_findings;
        \(["transactions", "evidence", "receipts", "receipt_checks"].map { table in
            ["insert", "update", "delete"].map { "DROP TRIGGER \(table)_dirty_\($0);" }.joined(separator: " ")
        }.joined(separator: "\n"))
        DELETE FROM schema_migrations WHERE name = 'issue24-incremental-detection';
        \(Self.withoutKeptLedgerEvents)
        """

    @Test func aStoreOfThePreviousVersionUpgradesOnItsFirstReport() async throws {
        // Made the store the previous version left: its revenue baseline, none of the kept results.
        let fixture = try await LedgerFixture.reported(
            "incremental-upgrade", Self.rows, asOf: Self.asOf,
            thenRewritten: RevenuePartsByLineTests.withoutRevenuePartsByLine + Self.beforeKeptResults)
        // A late import on a day the last report showed, then the first report of this version.
        try await fixture.importLedger(
            Self.rows + ["r5,u5,coins_100,1005,2026-11-18T12:00:00Z,0.99,USD,verified,2026-11-18T12:00:01Z,"])
        let first = try await fixture.report(asOf: Self.asOf + Self.day)
        #expect(detect(first)["incremental"] == 0)
        let changes = try fixture.dir.read("out/revenue_changes.csv")
        #expect(changes.contains("2026-11-18,coins_100,USD"), "\(changes)")
        #expect(changes.contains("late import"), "\(changes)")
        let store = try ReconStore(path: fixture.dir.file("s.sqlite"))
        #expect(try store.revenue.detectionState()?.asOf == Self.asOf + Self.day)
        #expect(try !store.revenue.hasLegacyRevenueBaseline())
        // From then on the report builds on it.
        let second = try await fixture.report(asOf: Self.asOf + 2 * Self.day)
        #expect(detect(second)["incremental"] == 1)
        #expect(try fixture.dir.read("out/revenue_changes.csv").split(separator: "\n").count == 1)
    }

    /// What undoes the migration that keeps Apple's reports' events (`issue24-kept-ledger-events`), and the later ones.
    static let withoutKeptLedgerEvents = """
        DROP TABLE IF EXISTS ledger_events; DROP TABLE dirty_report_days; DROP INDEX IF EXISTS transactions_by_product;
        \(["sales_report_rows", "financial_reports"].map { table in
            ["insert", "update", "delete"].map { "DROP TRIGGER \(table)_days_\($0);" }.joined(separator: " ")
        }.joined(separator: "\n"))
        DELETE FROM schema_migrations WHERE name = 'issue24-kept-ledger-events';
        \(FindingHistoryTests.withoutFindingsRecorded)
        """

    /// A store the version before kept events left (its results kept, no Apple report in it) upgrades on its next
    /// report, judged whole once because it kept no sales for revenue recognition, and then builds on what it kept.
    @Test func aStoreKeptBeforeLedgerEventsUpgradesAndThenStaysIncremental() async throws {
        let fixture = try await LedgerFixture.reported(
            "incremental-events-upgrade", Self.rows, asOf: Self.asOf,
            thenRewritten: RevenuePartsByLineTests.withoutRevenuePartsByLine + Self.withoutKeptLedgerEvents)
        #expect(detect(try await fixture.report(asOf: Self.asOf + Self.day))["incremental"] == 0)
        let next = try await fixture.report(asOf: Self.asOf + 2 * Self.day)
        #expect(detect(next)["incremental"] == 1)
        let store = try ReconStore(path: fixture.dir.file("s.sqlite"))
        #expect(try store.db.scalar("SELECT COUNT(*) FROM ledger_events") == 0)
        #expect(try store.db.scalar("SELECT COUNT(*) FROM dirty_report_days") == 0)
    }

    @Test func reportFullJudgesEveryTransaction() async throws {
        let fixture = LedgerFixture("incremental-full-flag")
        try await fixture.importLedger(Self.rows)
        _ = try await fixture.report(asOf: Self.asOf)
        let run = try runIAPRecon([
            "report", "--db", fixture.dir.file("s.sqlite"), "--out", fixture.dir.file("full"), "--as-of",
            "2026-11-21T12:00:00Z", "--full",
        ])
        #expect(run.exitCode == 0, "\(run.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(try fixture.dir.read("full/run.json").utf8))
        let counts = detect(json as? [String: Any] ?? [:])
        #expect(counts["incremental"] == 0)
        #expect(counts["transactions_judged"] == Self.rows.count)
    }
}
