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

extension PostgresTests {
    /// The built binary reading the backend's PostgreSQL: the same findings and revenue as the same
    /// rows exported to files, errors as one line with exit 1 and no store, the password nowhere.
    @Suite struct Commands {
        let dir = TemporaryDirectory("pg-commands")

        /// An hour from now: what the store learned now enters the reports (`--as-of` is a cut-off).
        static let asOf = ["--as-of", Timestamp.iso((Int64(Date().timeIntervalSince1970) + 3_600) * 1_000)]

        /// A backend's tables in their own types, and the queries mapping them to our fields.
        func makeBackend() throws -> (transactions: String, products: String) {
            try PostgresServer.require().psql(
                """
                DROP TABLE IF EXISTS purchases, catalog;
                CREATE TABLE catalog (sku text PRIMARY KEY, kind text NOT NULL, list_price numeric(10,2), cur char(3));
                INSERT INTO catalog VALUES ('coins_100', 'consumable', 0.99, 'USD'), ('pro', 'non-consumable', 4.99, 'USD'),
                    ('gems', 'consumable', 1200, 'JPY');
                CREATE TABLE purchases (id bigint PRIMARY KEY, account text, sku text, apple_tx text, original_tx text,
                    purchased_at timestamptz, qty int2, sandbox boolean, amount numeric(12,3), cur char(3), country text,
                    state text, delivered_at timestamptz, finished_at timestamptz);
                INSERT INTO purchases VALUES
                    (1, 'u1', 'coins_100', '2000001', NULL, '2026-11-01 10:00:00+00', 1, false, 0.99, 'USD', 'USA', 'verified',
                        '2026-11-01 10:00:02+00', '2026-11-01 10:00:03+00'),
                    (2, 'u2', 'coins_100', '2000001', NULL, '2026-11-01 10:05:00+00', 1, false, 0.99, 'USD', 'USA', 'verified',
                        '2026-11-01 10:05:02+00', '2026-11-01 10:05:03+00'),
                    (3, 'u3', 'pro', '2000003', NULL, '2026-11-02 23:30:00-08', 2, false, 3.49, 'USD', 'USA', 'verified',
                        '2026-11-03 07:31:00+00', NULL),
                    (4, 'u4', 'mystery', '2000004', NULL, '2026-11-03 01:00:00+05:30', 1, false, 1200, 'JPY', 'JPN',
                        'verified', '2026-11-03 01:00:09+05:30', '2026-11-03 01:00:10+05:30'),
                    (5, 'u5', 'gems', '2000005', NULL, '2026-11-04 12:00:00.250+00', 1, true, 1200, 'JPY', 'JPN', 'invalid',
                        '2026-11-04 12:00:01+00', NULL),
                    (6, 'u6', 'gems', '2000006', NULL, '2026-11-04 13:00:00+00', 11, false, 1200, 'JPY', 'JPN', 'verified',
                        NULL, NULL),
                    (7, 'u7', 'coins_100', '2000007', NULL, '2026-11-05 09:00:00+00', 1, false, 0.99, 'XXX', 'USA',
                        'verified', NULL, NULL);
                """)
            let transactions = """
                SELECT id AS record_id, account AS user_id, sku AS product_id, apple_tx AS transaction_id,
                    original_tx AS original_transaction_id, purchased_at AS purchase_date, qty AS quantity,
                    CASE WHEN sandbox THEN 'Sandbox' ELSE 'Production' END AS environment, amount AS price,
                    cur AS currency, country AS storefront, state AS verification_status, delivered_at, finished_at
                FROM purchases ORDER BY id
                """
            let products =
                "SELECT sku AS product_id, kind AS type, list_price AS price, cur AS currency FROM catalog ORDER BY sku"
            return (transactions, products)
        }

        /// `\\copy (query) TO 'file' CSV HEADER`, as a user exports a table today.
        func export(_ query: String, to name: String) throws -> String {
            let csv = try PostgresServer.require().psql("COPY (\(query)) TO STDOUT WITH (FORMAT csv, HEADER true)")
            return try dir.write(name, csv)
        }

        @Test func queriesGiveTheSameFindingsAndRevenueAsTheirExportedFiles() throws {
            let server = try PostgresServer.require()
            let (transactions, products) = try makeBackend()
            let fromFiles = try runIAPRecon(
                ["run", "--db", dir.file("files.sqlite"), "--out", dir.file("files-out")] + Self.asOf + [
                    "--transactions", try export(transactions, to: "ledger.csv"),
                    "--products", try export(products, to: "products.csv"),
                ])
            #expect(fromFiles.exitCode == 0, "\(fromFiles.stderr)")
            let fromQueries = try runIAPRecon(
                ["run", "--db", dir.file("db.sqlite"), "--out", dir.file("db-out")] + Self.asOf + [
                    "--source-db", server.url(), "--transactions-query", transactions, "--products-query", products,
                ])
            #expect(fromQueries.exitCode == 0, "\(fromQueries.stderr)")
            #expect(
                fromQueries.stdout.contains(
                    "transactions postgresql://127.0.0.1:\(server.port)/postgres transactions-query: read 7, accepted 5, rejected 2"
                ))
            for report in ["discrepancies.csv", "revenue_daily.csv"] {
                let files = try String(contentsOfFile: dir.file("files-out/" + report), encoding: .utf8)
                let queries = try String(contentsOfFile: dir.file("db-out/" + report), encoding: .utf8)
                #expect(files == queries, "\(report) differs")
                #expect(files.split(whereSeparator: \.isNewline).count > 1, "\(report) is empty")
            }
            let discrepancies = try String(contentsOfFile: dir.file("db-out/discrepancies.csv"), encoding: .utf8)
            #expect(discrepancies.contains("DUPLICATE_RECORD"))
            #expect(discrepancies.contains("UNKNOWN_PRODUCT"))
            func reasons(_ folder: String) throws -> [String] {
                let text = try String(contentsOfFile: dir.file(folder + "/rejected.csv"), encoding: .utf8)
                return text.split(whereSeparator: \.isNewline).dropFirst().map {
                    String($0.split(separator: ",").last ?? "")
                }
            }
            #expect(try reasons("files-out") == reasons("db-out"))
            #expect(try reasons("db-out").count == 2)
        }

        @Test func thePasswordNeverAppears() throws {
            let server = try PostgresServer.require()
            let (transactions, _) = try makeBackend()
            let store = dir.file("secret.sqlite")
            let imported = try runIAPRecon(
                [
                    "import", "--db", store, "--source-db", server.url(), "--transactions-query", transactions,
                    "--log-level", "trace",
                ])
            #expect(imported.exitCode == 0, "\(imported.stderr)")
            // The password from PGPASSWORD, a config file and a query file.
            let query = try dir.write("ledger.sql", transactions + ";\n")
            let config = try dir.write(
                "config.json",
                #"{"source-db": "\#(server.url(withPassword: false))", "transactions-query": "@\#(query)"}"#)
            let run = try runIAPRecon(
                ["run", "--db", store, "--out", dir.file("out"), "--config", config, "--log-level", "trace"]
                    + Self.asOf,
                environment: ["PGPASSWORD": server.password])
            #expect(run.exitCode == 0, "\(run.stderr)")
            #expect(run.stdout.contains("read 7, accepted 5, rejected 2"))
            var everything = imported.stdout + imported.stderr + run.stdout + run.stderr
            for file in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
                let path = dir.file(file)
                if let data = FileManager.default.contents(atPath: path) {
                    everything += String(decoding: data, as: UTF8.self)
                }
            }
            for report in try FileManager.default.contentsOfDirectory(atPath: dir.file("out")) {
                if let data = FileManager.default.contents(atPath: dir.file("out/" + report)) {
                    everything += String(decoding: data, as: UTF8.self)
                }
            }
            #expect(!everything.contains(server.password))
            #expect(everything.contains("postgresql://127.0.0.1:\(server.port)/postgres transactions-query"))
        }

        @Test(arguments: ["refused login", "unreachable", "syntax error", "writes"])
        func aSourceThatCannotBeReadCreatesNoStore(failure: String) throws {
            let server = try PostgresServer.require()
            var url = server.url()
            var query = "SELECT 1 AS record_id"
            switch failure {
            case "refused login": url = url.replacingOccurrences(of: server.password, with: "not-the-password-1")
            case "unreachable": url = "postgresql://recon:pw@127.0.0.1:\(try ThrowawayPostgres.freePort())/postgres"
            case "syntax error": query = "SELECT FROM WHERE"
            default:
                try server.psql("CREATE SEQUENCE IF NOT EXISTS recon_counter")
                query = "SELECT nextval('recon_counter') AS record_id"
            }
            let store = dir.file("never.sqlite")
            let result = try runIAPRecon(["import", "--db", store, "--source-db", url, "--transactions-query", query])
            #expect(result.exitCode == 1)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(result.stderr)")
            #expect(lines.first?.hasPrefix("iap-recon: error: ") == true)
            #expect(lines.first?.contains("postgresql://127.0.0.1:") == true)
            #expect(!result.stderr.contains("not-the-password-1"))
            #expect(!FileManager.default.fileExists(atPath: store))
        }
    }
}
