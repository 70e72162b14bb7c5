import Foundation
import IAPReconTestSupport
import Testing

@testable import IAPRecon
@testable import ReconModel
@testable import ReconStorage

extension PostgresTests {
    /// The store in PostgreSQL shaped to be distributed on Citus (docs/store.md, "The store on Citus").
    ///
    /// Citus refuses to distribute a table one of whose unique keys leaves the distribution column out, and a row
    /// whose distribution column is NULL. No Citus is available here, so the rule is checked in the server's catalog.
    @Suite struct Distribution {
        static let clock = ManualClock(millis: 1_795_176_000_000)

        func database(_ name: String) throws -> String {
            let server = try PostgresServer.require()
            try server.psql("DROP DATABASE IF EXISTS \(name); CREATE DATABASE \(name);")
            return server.url(database: name)
        }

        /// For each distributed table, its column's `NOT NULL`, and each unique index that leaves the column out.
        func catalog(_ database: String) throws -> [String: (notNull: Bool, without: [String])] {
            let server = try PostgresServer.require()
            var found: [String: (notNull: Bool, without: [String])] = [:]
            for (table, column) in Schema.distributedTables {
                let notNull = try server.psql(
                    """
                    SELECT a.attnotnull FROM pg_attribute a
                    WHERE a.attrelid = to_regclass('\(table)') AND a.attname = '\(column)'
                    """, database: database)
                let without = try server.psql(
                    """
                    SELECT i.indexrelid::regclass::text FROM pg_index i
                    WHERE i.indrelid = to_regclass('\(table)') AND i.indisunique
                        AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = i.indrelid
                            AND a.attnum = ANY(i.indkey) AND a.attname = '\(column)')
                    """, database: database)
                found[table] = (
                    notNull.trimmingCharacters(in: .whitespacesAndNewlines) == "t",
                    without.split(separator: "\n").map(String.init)
                )
            }
            return found
        }

        @Test func everyUniqueKeyOfADistributedTableIncludesItsColumn() throws {
            let url = try database("distributed")
            _ = try ReconStore(path: url, clock: Self.clock)
            let name = String(url.split(separator: "/").last?.split(separator: "?").first ?? "")
            let found = try catalog(name)
            #expect(found.count == Schema.distributedTables.count)
            for (table, shape) in found.sorted(by: { $0.key < $1.key }) {
                #expect(shape.notNull, "\(table)")
                #expect(shape.without.isEmpty, "\(table): \(shape.without)")
            }
        }

        /// A store in PostgreSQL kept by the version before upgrades in PostgreSQL's dialect: its kept rows and the
        /// changes it noted move under their original transactions, and its triggers note them so from then on.
        @Test func aStoreKeptBeforeUpgradesInPostgreSQLsDialect() throws {
            let url = try database("distributedupgrade")
            do {
                let store = try ReconStore(path: url, clock: Self.clock)
                // The store as the version before made it: its migrations up to the one before the keys.
                let before = try #require(Schema.migrations.firstIndex { $0.name == "issue34-distribution-keys" })
                try store.db.execute(["DROP SCHEMA public CASCADE", "CREATE SCHEMA public"])
                try PostgresSchema.create(
                    try #require(store.db as? PostgresDatabase), clock: Self.clock, migrations: before)
                try store.db.execute(
                    [
                        "INSERT INTO import_files (file_id, path) VALUES (1, 'ledger.csv')",
                        """
                        INSERT INTO transactions (record_id, user_id, product_id, transaction_id, original_transaction_id,
                            purchase_date, quantity, environment, verification_status, source_file_id, source_line,
                            imported_at)
                        VALUES ('s2', 'u1', 'pro_monthly', '2002', '2001', 1, 1, 'Production', 'verified', 1, 2, 1)
                        """,
                        """
                        INSERT INTO revenue_parts (transaction_id, seq, day, product_id, currency, units, gross_milli,
                            refunds_milli, rate_ppm, net_milli)
                        VALUES ('2002', 0, 20000, 'pro_monthly', 'USD', 1, 9990, 0, 700000, 6993),
                            ('3001', 0, 20000, 'coins', 'USD', 1, 990, 0, 700000, 693)
                        """,
                        "INSERT INTO dirty_transactions (transaction_id) VALUES ('2002')",
                        """
                        INSERT INTO evidence (source, transaction_id, original_transaction_id, signature, recorded_at)
                        VALUES ('server_api', '2002', '2001', 'valid', 1), ('offline', '4001', NULL, 'valid', 1)
                        """,
                    ])
            }
            let store = try ReconStore(path: url, clock: Self.clock)
            let parts = try store.db.prepare(
                "SELECT transaction_id, original_transaction_id FROM revenue_parts ORDER BY 1")
            var under: [String] = []
            while try parts.step() { under.append("\(parts.text(0))→\(parts.text(1))") }
            #expect(under == ["2002→2001", "3001→3001"])
            // Evidence without Apple's original transaction id is its transaction's own.
            let evidence = try store.db.prepare(
                "SELECT transaction_id, group_original_transaction_id FROM evidence ORDER BY 1")
            var grouped: [String] = []
            while try evidence.step() { grouped.append("\(evidence.text(0))→\(evidence.text(1))") }
            #expect(grouped == ["2002→2001", "4001→4001"])
            #expect(
                try store.db.scalar("SELECT COUNT(*) FROM dirty_transactions WHERE original_transaction_id = '2001'")
                    == 1)
            // The triggers made again note a change under its original transaction.
            try store.db.execute(
                [
                    "INSERT INTO detection_state (id, fingerprint, as_of, counters) VALUES (1, 'f', 1, '{}')",
                    "DELETE FROM dirty_transactions",
                    "UPDATE transactions SET verification_status = 'invalid' WHERE record_id = 's2'",
                ])
            #expect(
                try store.db.scalar("SELECT COUNT(*) FROM dirty_transactions WHERE original_transaction_id = '2001'")
                    == 1)
            let name = String(url.split(separator: "/").last?.split(separator: "?").first ?? "")
            for (table, shape) in try catalog(name) {
                #expect(shape.notNull && shape.without.isEmpty, "\(table): \(shape.without)")
            }
        }
    }
}
