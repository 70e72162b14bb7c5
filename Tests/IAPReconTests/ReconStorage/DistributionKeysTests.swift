import Foundation
import IAPReconTestSupport
import Testing

@testable import IAPRecon
@testable import ReconModel
@testable import ReconStorage

/// The original transaction id in the key of every table kept per transaction (`issue34-distribution-keys`,
/// docs/store.md "The store on Citus"): Citus distributes a table by one column, which every key of the table
/// must include and no row may leave NULL.
@Suite struct DistributionKeysTests {
    static let day = IncrementalStateTests.day
    static let asOf = IncrementalStateTests.asOf
    static let header = LedgerFixture.header + ",original_transaction_id"

    /// A monthly plan bought and renewed twice under its original transaction id (Apple's renewals keep it), and
    /// consumables, their own originals (enough of them that a night's change is judged alone).
    static let rows =
        IncrementalStateTests.rows.dropFirst(3).map { $0 + "," + $0.split(separator: ",")[3] } + [
            "s1,u1,pro_monthly,2001,2026-09-18T10:00:00Z,9.99,USD,verified,2026-09-18T10:00:01Z,2026-09-18T10:00:02Z,2001",
            "s2,u1,pro_monthly,2002,2026-10-18T10:00:00Z,9.99,USD,verified,2026-10-18T10:00:01Z,2026-10-18T10:00:02Z,2001",
            "s3,u1,pro_monthly,2003,2026-11-18T10:00:00Z,9.99,USD,verified,2026-11-18T10:00:01Z,,2001",
            "c1,u2,coins_100,3001,2026-11-18T11:00:00Z,0.99,USD,verified,2026-11-18T11:00:01Z,2026-11-18T11:00:02Z,3001",
            "c2,u3,coins_100,3002,2026-11-19T11:00:00Z,0.99,USD,verified,,,3002",
        ]

    /// The result tables rebuilt by the migration.
    static let rebuilt = [
        "transaction_results", "transaction_findings", "original_findings", "revenue_parts", "ledger_events",
        "recognition_sales",
    ]

    /// What undoes `issue34-distribution-keys`: the kept tables keyed by transaction id alone, as the version before
    /// kept them, with their rows.
    static func withoutDistributionKeys() throws -> String {
        let shapes = try SQLiteDatabase(path: ":memory:")
        // The later migrations first (``AppleWordSchemaTests``).
        var sql = AppleWordSchemaTests.withoutAppleWord2026
        for name in rebuilt {
            try shapes.execute(Schema.create(name, as: name, distributed: false))
            let columns = try shapes.prepare("SELECT group_concat(name, ', ') FROM pragma_table_info('\(name)')")
            _ = try columns.step()
            sql += """
                \(Schema.create(name, as: name + "_undone", distributed: false))
                INSERT INTO \(name)_undone SELECT \(columns.text(0)) FROM \(name);
                DROP TABLE \(name);
                ALTER TABLE \(name)_undone RENAME TO \(name);

                """
        }
        return sql + """
            \(Schema.distributedTableIndexes)
            \(Schema.noted.flatMap { table in
                ["insert", "update", "delete"].map { "DROP TRIGGER \(table)_dirty_\($0);" }
            }.joined(separator: "\n"))
            CREATE TABLE dirty_transactions_undone (transaction_id TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
            INSERT INTO dirty_transactions_undone SELECT DISTINCT transaction_id FROM dirty_transactions;
            DROP TABLE dirty_transactions;
            ALTER TABLE dirty_transactions_undone RENAME TO dirty_transactions;
            \(Schema.changeTriggers(distributed: false))
            ALTER TABLE evidence DROP COLUMN group_original_transaction_id;
            DELETE FROM schema_migrations WHERE name = 'issue34-distribution-keys';

            """
    }

    /// The tables whose key in SQLite is the row id (their order); PostgreSQL's key includes the column
    /// (``PostgresMigrations``, checked by ``PostgresTests/Distribution``).
    static let keyedByRowID: Set = ["evidence"]

    /// Each distributed table's column: whether it may be NULL, and whether the table's key includes it (or is the
    /// row id, ``keyedByRowID``).
    static func shape(_ db: any StoreDatabase) throws -> [String: (notNull: Bool, keyed: Bool)] {
        var found: [String: (notNull: Bool, keyed: Bool)] = [:]
        for (table, column) in Schema.distributedTables {
            let info = try db.prepare("SELECT \"notnull\", pk FROM pragma_table_info($1) WHERE name = $2")
            try info.bind([.text(table), .text(column)])
            found[table] =
                try info.step()
                ? (info.int64(0) != 0 || info.int64(1) != 0, info.int64(1) != 0 || keyedByRowID.contains(table)) : nil
        }
        return found
    }

    /// Which original transaction id each kept row of `table` is under, as `transaction id → original`.
    static func keptUnder(_ db: any StoreDatabase, _ table: String, id: String = "transaction_id") throws -> [String:
        String]
    {
        let column = table.hasSuffix("findings") ? "group_original_transaction_id" : Schema.distributionColumn
        let stmt = try db.prepare("SELECT DISTINCT \(id), \(column) FROM \(table) ORDER BY 1")
        var under: [String: String] = [:]
        while try stmt.step() { under[stmt.text(0)] = stmt.text(1) }
        return under
    }

    @Test func everyKeptTableKeysItsRowsUnderTheirOriginalTransaction() async throws {
        let fixture = LedgerFixture("distribution-keys")
        try await fixture.importLedger(Self.rows, header: Self.header)
        _ = try await fixture.report(asOf: Self.asOf)
        let store = try ReconStore(path: fixture.dir.file("s.sqlite"))
        #expect(try store.integrityCheck() == "ok")
        for (table, column) in Schema.distributedTables {
            let shape = try Self.shape(store.db)[table]
            #expect(shape?.notNull == true && shape?.keyed == true, "\(table).\(column)")
        }
        // The renewals are kept under the subscription's original transaction, the consumables under their own.
        let renewals = ["2002", "2003"]
        for table in ["revenue_parts", "recognition_sales"] {
            let under = try Self.keptUnder(store.db, table)
            #expect(under.count == 25, "\(table): \(under)")
            #expect(
                under.allSatisfy { $0.value == (renewals.contains($0.key) ? "2001" : $0.key) }, "\(table): \(under)")
        }
        // Undelivered, and unfinished: findings of 2003 and 3002, kept under their groups' originals.
        #expect(
            try Self.keptUnder(store.db, "transaction_findings", id: "group_id") == ["2003": "2001", "3002": "3002"])
        // A change since the report is noted under its original transaction too.
        try await fixture.importLedger(
            Self.rows + ["s4,u1,pro_monthly,2004,2026-11-19T10:00:00Z,9.99,USD,pending,,,2001"], header: Self.header)
        #expect(try Self.keptUnder(store.db, "dirty_transactions") == ["2004": "2001"])
    }

    @Test func aStoreKeptBeforeTheDistributionKeysUpgradesAndStaysIncremental() async throws {
        let fixture = LedgerFixture("distribution-keys-upgrade")
        try await fixture.importLedger(Self.rows, header: Self.header)
        _ = try await fixture.report(asOf: Self.asOf)
        let path = fixture.dir.file("s.sqlite")
        let before = try ReconStore(path: path)
        let kept = try Self.rebuilt.map { table in try before.db.scalar("SELECT COUNT(*) FROM \(table)") ?? -1 }
        try before.db.execute(try Self.withoutDistributionKeys())
        do {
            // Noted before the upgrade, by transaction id alone as the version before noted it.
            let old = try SQLiteDatabase(path: path)
            try old.execute("INSERT INTO dirty_transactions (transaction_id) VALUES ('2003')")
            #expect(try Self.shape(old)["revenue_parts"] == nil)
            #expect(try Self.shape(old)["transaction_results"] == nil)
        }
        // Opened by this version: rebuilt, every kept row under its original transaction, nothing lost.
        let store = try ReconStore(path: path)
        for (table, column) in Schema.distributedTables {
            let shape = try Self.shape(store.db)[table]
            #expect(shape?.notNull == true && shape?.keyed == true, "\(table).\(column)")
        }
        #expect(try store.integrityCheck() == "ok")
        let after = try Self.rebuilt.map { table in try store.db.scalar("SELECT COUNT(*) FROM \(table)") ?? -1 }
        #expect(after == kept)
        #expect(try Self.keptUnder(store.db, "revenue_parts")["2002"] == "2001")
        #expect(try Self.keptUnder(store.db, "dirty_transactions") == ["2003": "2001"])
        try await fixture.importLedger(
            Self.rows + ["s4,u1,pro_monthly,2004,2026-11-19T10:00:00Z,9.99,USD,pending,,,2001"], header: Self.header)
        // The next report builds on what was kept, and shows what a fresh store shows.
        let run = try await fixture.report(asOf: Self.asOf + Self.day)
        #expect(IncrementalStateTests().detect(run)["incremental"] == 1)
        let fresh = LedgerFixture("distribution-keys-fresh")
        try await fresh.importLedger(
            Self.rows + ["s4,u1,pro_monthly,2004,2026-11-19T10:00:00Z,9.99,USD,pending,,,2001"], header: Self.header)
        _ = try await fresh.report(asOf: Self.asOf + Self.day)
        // (`discrepancies.csv` differs by when each finding was first seen.)
        for file in ["revenue_daily.csv", "deferred_revenue.csv", "revenue_schedule.csv"] {
            #expect(try fixture.dir.read("out/\(file)") == (try fresh.dir.read("out/\(file)")), "\(file)")
        }
    }
}
