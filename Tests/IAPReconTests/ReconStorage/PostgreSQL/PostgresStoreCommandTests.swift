import Foundation
import IAPReconTestSupport
import Logging
import Testing

@testable import IAPRecon
@testable import ReconModel
@testable import ReconStorage

extension PostgresTests {
    /// The commands with `--db postgresql://…`: the same reports as on an SQLite file, byte for byte; errors in one
    /// line naming the server; the password nowhere.
    @Suite struct StoreCommands {
        let dir = TemporaryDirectory("pg-store-commands")

        /// A new, empty database on the suite's server, and its URL (with the password).
        func database(_ name: String) throws -> String {
            let server = try PostgresServer.require()
            try server.psql("DROP DATABASE IF EXISTS \(name); CREATE DATABASE \(name);")
            return server.url(database: name)
        }

        /// The golden files of ``ReportTests/goldenCSVReports()``, from a store in PostgreSQL.
        @Test func goldenCSVReports() async throws {
            for name in ["small-transactions.csv", "small-products.csv"] {
                try FileManager.default.copyItem(atPath: try fixturePath("ledger/" + name), toPath: dir.file(name))
            }
            let config = ReconConfig.forTesting(databasePath: try database("golden"), outputDirectory: dir.file("out"))
            _ = try await config.dependencies(at: 1_795_176_000_000).importFiles(
                ImportRequest(
                    transactions: [dir.file("small-transactions.csv")], products: [dir.file("small-products.csv")]))
            let outcome = try await config.dependencies(at: 1_795_176_000_000).report()
            #expect(outcome.exitCode == 0)
            let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../ReconReports/ReportTests.swift").standardized.path
            for name in ["revenue_daily.csv", "rejected.csv", "discrepancies.csv"] {
                let text = try dir.read("out/" + name).replacingOccurrences(of: dir.path + "/", with: "")
                if let mismatch = snapshotMismatch(text, named: "small-ledger." + name, testFile: snapshots) {
                    Issue.record(Comment(rawValue: mismatch))
                }
            }
        }

        @Test func importReportAndLookupGiveWhatAnSQLiteStoreGives() throws {
            let server = try PostgresServer.require()
            for name in ["small-transactions.csv", "small-products.csv"] {
                try FileManager.default.copyItem(atPath: try fixturePath("ledger/" + name), toPath: dir.file(name))
            }
            let url = try database("commands")
            var outputs: [String: [String: String]] = [:]
            var everything = ""
            for (side, store) in [("sqlite", dir.file("s.sqlite")), ("postgres", url)] {
                let imported = try runIAPRecon(
                    [
                        "import", "--db", store, "--transactions", dir.file("small-transactions.csv"), "--products",
                        dir.file("small-products.csv"), "--log-level", "trace",
                    ])
                #expect(imported.exitCode == 0, "\(imported.stderr)")
                let report = try runIAPRecon(
                    ["report", "--db", store, "--out", dir.file(side), "--as-of", "2026-11-21T00:00:00Z"])
                #expect(report.exitCode == 0, "\(report.stderr)")
                let lookup = try runIAPRecon(["lookup", "--db", store, "--user", "u1", "--format", "json"])
                #expect(lookup.exitCode == 0, "\(lookup.stderr)")
                var files = ["lookup": lookup.stdout]
                for name in try FileManager.default.contentsOfDirectory(atPath: dir.file(side))
                where name.hasSuffix(".csv") {
                    files[name] = try dir.read("\(side)/\(name)")
                }
                outputs[side] = files
                everything += imported.stdout + imported.stderr + report.stdout + report.stderr + lookup.stderr
                everything += try dir.read("\(side)/run.json")
            }
            #expect(outputs["sqlite"]?.count ?? 0 > 5)
            #expect(outputs["postgres"] == outputs["sqlite"])
            #expect(!everything.contains(server.password))
        }

        /// `demo --db URL`: the nightly job against the simulator, with its store in PostgreSQL, then `lookup` reads it.
        @Test func theDemoRunsWithItsStoreInPostgreSQL() throws {
            let server = try PostgresServer.require()
            let url = try database("demo")
            let demo = try runIAPRecon(["demo", "--out", dir.file("demo"), "--purchases", "60", "--db", url])
            #expect([0, 3].contains(demo.exitCode), "\(demo.stderr)")
            let shown = "postgresql://recon@127.0.0.1:\(server.port)/demo?sslmode=disable"
            #expect(demo.stdout.contains("store: \(shown)\n"), "\(demo.stdout)")
            #expect(demo.stdout.contains("/iap-recon lookup --db '\(shown)' --user user-paid-nothing-1\n"))
            #expect(!(demo.stdout + demo.stderr).contains(server.password))
            #expect(!FileManager.default.fileExists(atPath: dir.file("demo/demo.sqlite")))
            let lookup = try runIAPRecon(["lookup", "--db", url, "--user", "user-paid-nothing-1"])
            #expect(lookup.exitCode == 0, "\(lookup.stderr)")
            #expect(lookup.stdout.hasPrefix("user user-paid-nothing-1: charged for"), "\(lookup.stdout)")
        }

        @Test func aServerThatIsDownFailsInOneLineNamingItAndCreatesNothing() throws {
            let port = try ThrowawayPostgres.freePort()
            for command in [
                ["import", "--transactions", try fixturePath("ledger/small-transactions.csv")], ["report"],
            ] {
                var arguments = [command[0], "--db", "postgresql://recon:not-shown-77@127.0.0.1:\(port)/postgres"]
                arguments += command.dropFirst()
                if command[0] == "report" { arguments += ["--out", dir.file("out")] }
                let result = try runIAPRecon(arguments)
                #expect(result.exitCode == 1)
                let lines = result.stderr.split(separator: "\n")
                #expect(lines.count == 1, "\(result.stderr)")
                #expect(
                    lines.first?.hasPrefix(
                        "iap-recon: error: cannot open store 'postgresql://127.0.0.1:\(port)/postgres'") == true)
                #expect(!result.stderr.contains("not-shown-77"))
            }
            #expect(!FileManager.default.fileExists(atPath: dir.file("out")))
        }

        /// A password the server refuses: one line naming the server and what it said (never the password tried), exit
        /// 1, nothing created in the database.
        @Test func aRefusedLoginFailsInOneLineWithoutThePassword() throws {
            let server = try PostgresServer.require()
            try server.psql("DROP DATABASE IF EXISTS refused; CREATE DATABASE refused;")
            let url = "postgresql://\(server.user):wrong-pw-91@127.0.0.1:\(server.port)/refused?sslmode=disable"
            let result = try runIAPRecon(
                ["import", "--db", url, "--transactions", try fixturePath("ledger/small-transactions.csv")],
                environment: ["PGPASSWORD": ""])
            #expect(result.exitCode == 1)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(result.stderr)")
            #expect(
                lines.first?.hasPrefix(
                    "iap-recon: error: cannot open store 'postgresql://127.0.0.1:\(server.port)/refused'") == true,
                "\(result.stderr)")
            #expect(result.stderr.contains("password authentication failed"), "\(result.stderr)")
            #expect(!result.stderr.contains("wrong-pw-91"))
            #expect(!result.stderr.contains(server.password))
            let tables = try server.psql(
                "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database: "refused")
            #expect(tables.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        }
    }
}
