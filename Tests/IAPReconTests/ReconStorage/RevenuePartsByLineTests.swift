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

/// The kept revenue parts in line order (`issue24-revenue-parts-by-line`): a store that kept them by transaction
/// upgrades on first use, and the lines it adds up again are the lines a fresh store shows.
@Suite struct RevenuePartsByLineTests {
    /// What undoes the migration: the parts kept by transaction, with their line index, as the version before kept
    /// them.
    static let withoutRevenuePartsByLine =
        withoutDeferredRevenue + """
            CREATE TABLE revenue_parts_by_transaction_old (
                transaction_id TEXT NOT NULL, seq INTEGER NOT NULL, day INTEGER NOT NULL, product_id TEXT NOT NULL,
                currency TEXT NOT NULL, units INTEGER NOT NULL, gross_milli INTEGER NOT NULL,
                refunds_milli INTEGER NOT NULL, rate_ppm INTEGER NOT NULL, net_milli INTEGER NOT NULL,
                stated_milli INTEGER, stated_currency TEXT, stated_source TEXT,
                PRIMARY KEY (transaction_id, seq)
            ) WITHOUT ROWID;
            INSERT INTO revenue_parts_by_transaction_old SELECT * FROM revenue_parts;
            DROP TABLE revenue_parts;
            ALTER TABLE revenue_parts_by_transaction_old RENAME TO revenue_parts;
            CREATE INDEX revenue_parts_by_line ON revenue_parts(day, product_id, currency);
            DELETE FROM schema_migrations WHERE name = 'issue24-revenue-parts-by-line';
            """

    /// What undoes the later migrations (`issue34-distribution-keys`, ``DistributionKeysTests``), then those of
    /// revenue recognition (`issue35-catalog-duration`,
    /// `issue35-deferred-revenue-shown`, `issue35-recognition-kept`, `issue35-revenue-schedule-written`): a store of the
    /// version before them, whose kept results were worked out without the sales (their fingerprint is not this
    /// version's).
    static let withoutDeferredRevenue =
        ((try? DistributionKeysTests.withoutDistributionKeys()) ?? "SELECT 'no undo' FROM nowhere;")
            + """
            DROP TABLE deferred_revenue_shown; DROP TABLE deferred_revenue_shown_report;
            DROP TABLE recognition_sales; DROP TABLE recognition_months; DROP TABLE revenue_schedule_written;
            ALTER TABLE products DROP COLUMN duration;
            DELETE FROM schema_migrations
                WHERE name IN (
                    'issue35-catalog-duration', 'issue35-deferred-revenue-shown', 'issue35-recognition-kept',
                    'issue35-revenue-schedule-written');
            UPDATE detection_state SET fingerprint = 'kept by the version before revenue recognition';

            """

    static let day: Int64 = 86_400_000
    static let asOf = IncrementalStateTests.asOf

    /// Eight purchases on one line (2026-11-05, coins_100, USD) and the fixture's others.
    static let rows =
        IncrementalStateTests.rows
        + (40..<48).map { n in
            "p\(n),u\(n),coins_100,8\(n),2026-11-05T1\(n % 10):00:00Z,0.99,USD,verified,"
                + "2026-11-05T1\(n % 10):00:01Z,2026-11-05T1\(n % 10):00:02Z"
        }

    func revenue(_ fixture: LedgerFixture) throws -> String { try fixture.dir.read("out/revenue_daily.csv") }

    /// `revenue_daily.csv` of a fresh store given `rows`, reported at `asOf`.
    func freshRevenue(_ rows: [String], asOf: Int64, label: String) async throws -> String {
        try revenue(try await LedgerFixture.reported(label, rows, asOf: asOf))
    }

    /// How the store keeps the parts, read without opening it as a store (which upgrades it).
    func layout(_ fixture: LedgerFixture) throws -> (sql: String, lineIndex: Int64?) {
        let db = try SQLiteDatabase(path: fixture.dir.file("s.sqlite"), readOnly: true)
        let sql = try db.prepare("SELECT sql FROM sqlite_master WHERE name = 'revenue_parts'")
        _ = try sql.step()
        let index = try db.scalar(
            "SELECT COUNT(*) FROM sqlite_master WHERE name = 'revenue_parts_by_line'")
        return (sql.text(0), index)
    }

    @Test func aStoreThatKeptPartsByTransactionUpgradesAndAddsLinesUpAsAFreshStore() async throws {
        let fixture = try await LedgerFixture.reported(
            "parts-by-line-upgrade", Self.rows, asOf: Self.asOf, thenRewritten: Self.withoutRevenuePartsByLine)
        #expect(try layout(fixture).lineIndex == 1)
        // The next night: one purchase of the busy line refunded, one more on it imported late, one of today.
        var night = Self.rows.map {
            $0.hasPrefix("p43,") ? $0.replacingOccurrences(of: ",verified,", with: ",invalid,") : $0
        }
        night.append("p50,u50,coins_100,8050,2026-11-05T20:00:00Z,0.99,USD,verified,2026-11-05T20:00:01Z,")
        night.append("p51,u51,coins_500,8051,2026-11-20T18:00:00Z,4.99,USD,verified,2026-11-20T18:00:01Z,")
        try await fixture.importLedger(night)
        let run = try await fixture.report(asOf: Self.asOf + Self.day)
        // Upgraded on first use, and the report still built on what the store kept.
        let upgraded = try layout(fixture)
        #expect(upgraded.lineIndex == 0)
        #expect(
            upgraded.sql.contains(
                "PRIMARY KEY (day, product_id, currency, transaction_id, seq, original_transaction_id)"),
            "\(upgraded.sql)")
        // Kept before revenue recognition kept its sales: judged whole once (CONTRACT §5.1 needs every sale).
        #expect(IncrementalStateTests().detect(run)["incremental"] == 0)
        let shown = try revenue(fixture)
        #expect(shown == (try await freshRevenue(night, asOf: Self.asOf + Self.day, label: "parts-by-line-fresh")))
        #expect(shown.contains("2026-11-05,coins_100,USD,"), "\(shown)")
        // The night after builds on the upgraded store: another purchase of the busy line refunded.
        let second = night.map {
            $0.hasPrefix("p44,") ? $0.replacingOccurrences(of: ",verified,", with: ",invalid,") : $0
        }
        try await fixture.importLedger(second)
        let counts = IncrementalStateTests().detect(try await fixture.report(asOf: Self.asOf + 2 * Self.day))
        #expect(counts["incremental"] == 1)
        // The refunded purchase, and one whose moment came with the day (of 33).
        #expect(counts["transactions_judged"] == 2)
        #expect(
            try revenue(fixture)
                == (try await freshRevenue(second, asOf: Self.asOf + 2 * Self.day, label: "parts-by-line-fresh-2")))
    }

    /// A changed line whose sums overflow the money type in SQL is added up part by part: capped at the type's largest
    /// amount, as a fresh store shows it, not a failed (or trapped) report.
    @Test func aChangedLineThatOverflowsIsCappedAsAFreshStoreCapsIt() async throws {
        // The largest price a row may state (15 digits); ten of them on one line are more than the type holds.
        let huge = (1...10).map { n in
            "h\(n),u6\(n),coins_100,70\(n),2026-11-18T09:00:0\(n % 10)Z,999999999999999,USD,verified,"
                + "2026-11-18T09:10:00Z,2026-11-18T09:10:01Z"
        }
        let first = IncrementalStateTests.rows + huge.dropLast()
        let fixture = try await LedgerFixture.reported("parts-by-line-overflow", first, asOf: Self.asOf)
        let night = IncrementalStateTests.rows + huge
        try await fixture.importLedger(night)
        let run = try await fixture.report(asOf: Self.asOf + Self.day)
        #expect(IncrementalStateTests().detect(run)["incremental"] == 1)
        let shown = try revenue(fixture)
        let fresh = try await freshRevenue(night, asOf: Self.asOf + Self.day, label: "parts-by-line-overflow-fresh")
        #expect(shown == fresh)
        #expect(shown.contains("2026-11-18,coins_100,USD,12,9223372036854775.81,"), "\(shown)")
    }
}

extension LedgerFixture {
    /// A store that imported `rows` and reported as of `asOf`; then rewritten with `sql`, if given: made what an
    /// earlier version left, for a test of its upgrade.
    static func reported(_ name: String, _ rows: [String], asOf: Int64, thenRewritten sql: String? = nil)
        async throws -> LedgerFixture
    {
        let fixture = LedgerFixture(name)
        try await fixture.importLedger(rows)
        _ = try await fixture.report(asOf: asOf)
        if let sql { try ReconStore(path: fixture.dir.file("s.sqlite")).db.execute(sql) }
        return fixture
    }
}
