import Foundation
import IAPReconTestSupport
import Testing

@testable import ReconStorage

/// The Citus cluster of the suite it marks: a coordinator and two workers started before the suite's first test and
/// stopped after its last, also when a test fails.
struct CitusClusterTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let cluster = try ThrowawayCitus()
        defer { cluster.destroy() }
        try await CitusCluster.$current.withValue(cluster) { try await function() }
    }
}

extension Trait where Self == CitusClusterTrait {
    /// Runs the suite against a throwaway three-node Citus cluster (``CitusCluster/current``).
    static var citusCluster: Self { Self() }
}

/// The running cluster of the current suite.
enum CitusCluster {
    @TaskLocal static var current: ThrowawayCitus?

    static func require() throws -> ThrowawayCitus {
        try #require(current, "the suite needs the .citusCluster trait")
    }
}

/// The store on a real Citus cluster (docs/store.md, "The store on Citus"): distributed by the program, every command
/// as on one server, the reports SQLite's byte for byte.
@Suite(.serialized, .citusCluster) struct CitusLayoutTests {
    let dir = TemporaryDirectory("citus-store")

    /// One value `sql` reads on the coordinator, trimmed.
    func read(_ sql: String, in database: String) throws -> String {
        try CitusCluster.require().psql(sql, database: database).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every CSV report in `folder`, with the folder's own path taken out (`rejected.csv` names its input files).
    func reports(_ folder: String) throws -> [String: String] {
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.file(folder)) where name.hasSuffix(".csv") {
            files[name] = try dir.read("\(folder)/\(name)").replacingOccurrences(of: dir.file(folder) + "/", with: "")
        }
        return files
    }

    /// Where the ledger's rows are: the distribution column, the tables co-located with it, and each worker's rows.
    func expectDistributed(_ database: String) throws {
        let cluster = try CitusCluster.require()
        #expect(
            try read(
                """
                SELECT partmethod::text || ' ' || column_to_column_name(logicalrelid, partkey) FROM pg_dist_partition
                WHERE logicalrelid = 'transactions'::regclass
                """, in: database) == "h original_transaction_id")
        let colocated = try read(
            """
            SELECT count(*) FROM pg_dist_partition WHERE logicalrelid <> 'transactions'::regclass
                AND colocationid = (SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = 'transactions'::regclass)
            """, in: database)
        #expect(Int(colocated) ?? 0 >= 6, "co-located with transactions: \(colocated)")
        #expect(try read("SELECT count(*) FROM citus_tables WHERE citus_table_type = 'reference'", in: database) != "0")
        for worker in cluster.workers {
            let rows = try read(
                """
                SELECT COALESCE(SUM(r.result::bigint), 0) FROM run_command_on_shards('transactions',
                    'SELECT count(*) FROM %s') r JOIN citus_shards s ON s.shardid = r.shardid
                WHERE s.nodeport = \(worker.port)
                """, in: database)
            #expect(Int(rows) ?? 0 > 0, "the worker on port \(worker.port) holds \(rows) ledger rows")
        }
        // The coordinator's own table is a shell: its rows were moved into the shards, none left on its disk.
        let local = try read("SELECT pg_relation_size('transactions')", in: database)
        #expect(local == "0", "the coordinator keeps \(local) bytes of ledger rows of its own")
    }

    /// `demo --db` on the cluster: the store is created distributed, the reports equal the demo's on SQLite byte for
    /// byte, and `lookup` on the coordinator answers as from the file.
    @Test func theDemoOnCitusIsDistributedAndReportsAsOnSQLite() throws {
        let cluster = try CitusCluster.require()
        let url = try cluster.createDatabase("demo")
        let citus = try runIAPRecon(["demo", "--out", dir.file("citus"), "--purchases", "60", "--db", url])
        #expect([0, 3].contains(citus.exitCode), "\(citus.stderr)")
        let sqlite = try runIAPRecon(["demo", "--out", dir.file("sqlite"), "--purchases", "60"])
        #expect(sqlite.exitCode == citus.exitCode, "\(sqlite.stderr)")
        let expected = try reports("sqlite")
        #expect(expected.count >= 10)
        let found = try reports("citus")
        for (name, text) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(found[name] == text, "\(name) differs on Citus")
        }
        try expectDistributed("demo")
        #expect(!(citus.stdout + citus.stderr).contains(cluster.coordinator.password))
        for user in ["user-paid-nothing-1", "user-refunded-later"] {
            let onCitus = try runIAPRecon(["lookup", "--db", url, "--user", user, "--format", "json"])
            let onFile = try runIAPRecon(
                ["lookup", "--db", dir.file("sqlite/demo.sqlite"), "--user", user, "--format", "json"])
            #expect(onCitus.exitCode == 0, "\(onCitus.stderr)")
            #expect(onCitus.stdout.contains("\"findings\""), "\(onCitus.stdout)")
            #expect(onCitus.stdout.count > 100)
            #expect(onFile.exitCode == 0)
        }
    }

    /// A store made on the database before the extension was installed is distributed by its next writing command,
    /// its rows kept; the reports stay the same, and a read-only command leaves it as it is.
    @Test func anUndistributedStoreIsDistributedByItsNextWritingCommand() throws {
        let cluster = try CitusCluster.require()
        let url = try cluster.createDatabase("upgraded", extensionInstalled: false)
        let ledger = try fixturePath("ledger/small-transactions.csv")
        let products = try fixturePath("ledger/small-products.csv")
        let imported = try runIAPRecon(["import", "--db", url, "--transactions", ledger, "--products", products])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        let before = try runIAPRecon([
            "report", "--db", url, "--out", dir.file("before"), "--as-of", "2026-11-21T00:00:00Z",
        ])
        #expect(before.exitCode == 0, "\(before.stderr)")
        try cluster.addCitus(to: "upgraded")
        #expect(try read("SELECT count(*) FROM citus_tables", in: "upgraded") == "0")
        let lookup = try runIAPRecon(["lookup", "--db", url, "--user", "u1"])
        #expect(lookup.exitCode == 0, "\(lookup.stderr)")
        #expect(try read("SELECT count(*) FROM citus_tables", in: "upgraded") == "0", "a lookup distributes nothing")
        let after = try runIAPRecon(
            ["report", "--db", url, "--out", dir.file("after"), "--as-of", "2026-11-21T00:00:00Z", "--full"])
        #expect(after.exitCode == 0, "\(after.stderr)")
        try expectDistributed("upgraded")
        #expect(try reports("after") == reports("before"))
        let again = try runIAPRecon(["import", "--db", url, "--transactions", ledger, "--products", products])
        #expect(again.exitCode == 0, "\(again.stderr)")
    }

    /// A first load that names records twice keeps each one's last row, whether the two rows are on one shard (the
    /// same original transaction id) or on two; then a re-export that moves a record: the reports equal SQLite's.
    @Test func recordsGivenTwiceAndMovedEndAsOnSQLite() throws {
        let cluster = try CitusCluster.require()
        let url = try cluster.createDatabase("twice")
        let header =
            "record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,"
            + "environment,price,currency,storefront,verification_status,delivered_at,finished_at,receipt_id\n"
        func row(_ record: String, _ user: String, _ tx: String, _ original: String) -> String {
            "\(record),\(user),p,\(tx),\(original),2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,\n"
        }
        let first = try dir.write(
            "first.csv",
            header + row("r1", "u1", "t1", "t1") + row("r2", "u2", "t2", "o2") + row("r3", "u3", "t3", "t3")
                + row("r1", "u9", "t1", "t1") + row("r2", "u8", "t2", "o9"))
        let moved = try dir.write(
            "moved.csv",
            header + row("r1", "u9", "t1", "t1") + row("r2", "u8", "t2", "o9") + row("r3", "u3", "t3", "o3"))
        for (side, store) in [("sqlite", dir.file("twice.sqlite")), ("citus", url)] {
            for (night, file) in [first, moved].enumerated() {
                let imported = try runIAPRecon(["import", "--db", store, "--transactions", file])
                #expect(imported.exitCode == 0, "\(imported.stderr)")
                let report = try runIAPRecon(
                    ["report", "--db", store, "--out", dir.file("\(side)-\(night)"), "--as-of", "2026-11-21T00:00:00Z"])
                #expect(report.exitCode == 0, "\(report.stderr)")
            }
        }
        for night in 0..<2 {
            #expect(try reports("citus-\(night)").count > 5)
            #expect(try reports("citus-\(night)") == reports("sqlite-\(night)"), "night \(night)")
        }
        #expect(
            try read(
                "SELECT string_agg(record_id || ':' || user_id, ' ' ORDER BY record_id) FROM transactions", in: "twice")
                == "r1:u9 r2:u8 r3:u3")
    }

    /// An error the cluster answers is reported as the server's error, in one line, never as a lost connection.
    @Test func theClustersRefusalIsItsErrorNotALostConnection() throws {
        let cluster = try CitusCluster.require()
        _ = try cluster.createDatabase("refusal")
        let url = cluster.coordinator.url(database: "refusal")
        let imported = try runIAPRecon(
            ["import", "--db", url, "--transactions", try fixturePath("ledger/small-transactions.csv")])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        // A worker gone: the coordinator answers the statement's failure itself.
        cluster.workers[0].stop()
        defer { try? cluster.workers[0].start() }
        let report = try runIAPRecon(["report", "--db", url, "--out", dir.file("refused")])
        #expect(report.exitCode == 1)
        #expect(report.stderr.split(separator: "\n").count == 1, "\(report.stderr)")
        #expect(!report.stderr.contains("lost postgresql://"), "\(report.stderr)")
        #expect(!report.stderr.contains(cluster.coordinator.password))
    }
}
