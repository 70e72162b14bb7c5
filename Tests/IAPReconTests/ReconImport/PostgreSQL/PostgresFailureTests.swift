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
    /// What goes wrong with a real server: each a one-line error naming the server and
    /// PostgreSQL's message, before anything is written or, mid-stream, repaired by a rerun.
    @Suite struct Failures {
        let dir = TemporaryDirectory("pg-failures")

        func openError(_ source: DatabaseSource) async -> DatabaseSourceError? {
            do {
                let database = try await LedgerDatabase.open(source, logger: PostgresTests.logger)
                await database.close()
                return nil
            } catch {
                return error
            }
        }

        @Test func refusedLogin() async throws {
            let source = try PostgresTests.source([(.transactions, "SELECT 1")], password: "wrong-secret-42")
            let error = try #require(await openError(source))
            let text = try #require(error.errorDescription)
            #expect(text.hasPrefix("cannot read \(source.name): password authentication failed for user \"recon\""))
            #expect(!text.contains("wrong-secret-42"))
            #expect(!text.contains("\n"))
        }

        @Test func unreachableServerFailsWithinSeconds() async throws {
            let port = try ThrowawayPostgres.freePort()
            var source = try DatabaseSource(url: "postgresql://recon:pw@127.0.0.1:\(port)/app", environment: [:])
            source.queries = [(kind: InputKind.transactions, sql: "SELECT 1")]
            let start = Date()
            let error = try #require(await openError(source))
            #expect(Date().timeIntervalSince(start) < 10)
            #expect(error.errorDescription?.hasPrefix("cannot read postgresql://127.0.0.1:\(port)/app: ") == true)
            #expect(error.errorDescription?.lowercased().contains("refused") == true)
        }

        @Test func tlsRequiredButRefused() async throws {
            let source = try PostgresTests.source([(.transactions, "SELECT 1")], sslmode: "require")
            let error = try #require(await openError(source))
            #expect(
                error
                    == .connect(
                        server: source.name, message: "the server does not accept TLS, and sslmode=require asks for it")
            )
        }

        @Test func syntaxErrorNamesTheQueryAndPostgreSQLsMessage() async throws {
            let source = try PostgresTests.source([
                (.products, "SELECT 'p' AS product_id, 'consumable' AS type"), (.transactions, "SELEC 1"),
            ])
            let error = try #require(await openError(source))
            #expect(
                error
                    == .query(
                        source: "\(source.name) transactions-query",
                        message: "syntax error at or near \"SELEC\" (SQLSTATE 42601)"))
        }

        /// The snapshot is read-only: a query that writes (here, a sequence) fails, and nothing is written.
        @Test func aQueryThatWritesFails() async throws {
            try PostgresServer.require().psql("CREATE SEQUENCE IF NOT EXISTS recon_counter")
            let source = try PostgresTests.source([(.transactions, "SELECT nextval('recon_counter') AS record_id")])
            let error = try #require(await openError(source))
            #expect(
                error
                    == .query(
                        source: "\(source.name) transactions-query",
                        message: "cannot execute nextval() in a read-only transaction (SQLSTATE 25006)"))
            let writes = try PostgresServer.require().psql(
                "SELECT count(*) FROM pg_sequences WHERE sequencename = 'recon_counter' AND last_value IS NOT NULL")
            #expect(writes.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        }

        /// Rows another connection commits while the import reads are not seen, not even by a later
        /// query of the same import: every query reads one snapshot.
        @Test func oneSnapshotForEveryQuery() async throws {
            try PostgresTests.makeLedgerTable("snapshot_ledger", rows: 12_000)
            let server = try PostgresServer.require()
            let store = try PostgresTests.store(dir)
            var importer = Importer()
            importer.progressInterval = 1_000
            var done = false
            importer.progress = { _, _ in
                guard !done else { return }
                done = true
                try? server.psql(
                    """
                    INSERT INTO snapshot_ledger (id, account, sku, apple_id, purchased_at, state)
                    SELECT g, md5(g::text)::uuid, 'late', 3000000000 + g, now(), 'verified'
                    FROM generate_series(12001, 12010) AS g;
                    DELETE FROM snapshot_ledger WHERE id = 11999;
                    """)
            }
            let source = try PostgresTests.source([
                (
                    .products,
                    "SELECT 'coins_' || g AS product_id, 'consumable' AS type FROM generate_series(1, 3000) AS g"
                ),
                (.transactions, PostgresTests.ledgerQuery("snapshot_ledger")),
            ])
            let summaries = try await PostgresTests.importing(source, into: store, importer: importer)
            #expect(done)
            #expect(summaries.last?.read == 12_000)
            #expect(summaries.last?.accepted == 12_000)
            #expect(try store.ledger.counts().transactions == 12_000)
            // A new import sees the new snapshot.
            let again = try await PostgresTests.importing(source, into: store)
            #expect(again.last?.read == 12_009)
        }

        /// The server gone while a result's rows wait for a slow reader: the reader gets an error.
        ///
        /// The connection's end arrives as a "read complete" nobody asked for, which postgres-nio 1.33.2
        /// answers by stopping the process (signal 4) unless ``ReadCompleteGuard`` holds it back.
        @Test func aServerGoneWhileRowsWaitForTheReaderFailsTheQueryNotTheProcess() async throws {
            let server = try PostgresServer.require()
            let source = try PostgresTests.source([])
            let connection = try await LedgerDatabase.connect(source, logger: PostgresTests.logger)
            let rows = try await connection.query(
                "SELECT g, repeat('x', 200) FROM generate_series(1, 2000000) AS g", logger: PostgresTests.logger)
            var read = 0
            await #expect(throws: (any Error).self) {
                for try await _ in rows {
                    read += 1
                    guard read == 1 else { continue }
                    // The reader pauses: the client stops asking for rows, the server waits to send more.
                    try await Task.sleep(for: .milliseconds(300))
                    server.stop()
                    try await Task.sleep(for: .milliseconds(300))
                }
            }
            try server.start()
            #expect(read > 0 && read < 2_000_000)
            try? await connection.close()
        }

        /// A first load into an empty store (one bulk transaction), the server stopped while rows
        /// stream, at a different row each time: always the one-line error and exit 1 — never the
        /// client library stopping the process (signal 4, see ``ReadCompleteGuard``) — nothing
        /// stored, and a rerun on the server's return imports every row.
        ///
        /// The query itself holds the stream at the chosen row (a `pg_sleep` in its `WHERE`, rows
        /// read in index order), so the cut never races the import, however loaded the machine is.
        @Test func firstLoadCutMidStreamExitsOneEveryTime() async throws {
            let rows = 100_000
            try PostgresTests.makeLedgerTable("cut_ledger", rows: rows)
            let server = try PostgresServer.require()
            let fetch = LedgerDatabase.fetchSize
            for (attempt, heldRow) in [fetch + 1, 4 * fetch + 17, 12 * fetch - 1].enumerated() {
                let store = dir.file("cut-\(attempt).sqlite")
                let query = PostgresTests.ledgerQuery(
                    "cut_ledger WHERE id <> \(heldRow) OR (SELECT true FROM pg_sleep(600))")
                let run = Task {
                    try await runIAPReconOnItsOwnThread([
                        "import", "--db", store, "--source-db", server.url(), "--transactions-query", query,
                    ])
                }
                // Rows stream in index order, so the rows before the held one reach the import first.
                let plan = try server.psql("BEGIN; EXPLAIN DECLARE held CURSOR FOR \(query); ROLLBACK;")
                #expect(plan.contains("Index Scan using cut_ledger_pkey"), "\(plan)")
                try await waitForTheHeldRow(server)
                server.stop()
                let cut = try await run.value
                try server.start()
                #expect(cut.exitCode == 1, "row \(heldRow): exit \(cut.exitCode): \(cut.stderr)")
                let lines = cut.stderr.split(separator: "\n")
                #expect(lines.count == 1, "row \(heldRow): \(cut.stderr)")
                #expect(
                    lines.first?.contains("lost postgresql://127.0.0.1:\(server.port)/postgres while reading") == true,
                    "row \(heldRow): \(cut.stderr)")
                if FileManager.default.fileExists(atPath: store) {
                    #expect(try ReconStore(path: store).ledger.counts().transactions == 0)
                }
            }
            let rerun = try runIAPRecon([
                "import", "--db", dir.file("cut-0.sqlite"), "--source-db", server.url(),
                "--transactions-query", PostgresTests.ledgerQuery("cut_ledger"),
            ])
            #expect(rerun.exitCode == 0, "\(rerun.stderr)")
            #expect(try ReconStore(path: dir.file("cut-0.sqlite")).ledger.counts().transactions == rows)
        }

        /// Waits until the import's query sleeps at its held row: the rows before it are read.
        func waitForTheHeldRow(_ server: ThrowawayPostgres) async throws {
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline {
                let held = try server.psql(
                    """
                    SELECT count(*) FROM pg_stat_activity
                    WHERE application_name = 'iap-recon' AND wait_event = 'PgSleep'
                    """)
                if held.trimmingCharacters(in: .whitespacesAndNewlines) != "0" { return }
                try await Task.sleep(for: .milliseconds(20))
            }
            Issue.record("the import never reached its held row")
        }

        /// A server stopped mid-stream: exit with the server named; once it is back, the import runs
        /// again to the end, and no row is counted twice.
        @Test func serverStoppedMidStreamThenARerunCompletes() async throws {
            try PostgresTests.makeLedgerTable("midstream_ledger", rows: 20_000)
            let server = try PostgresServer.require()
            let store = try PostgresTests.store(dir)
            // A ledger that is not empty: rows are upserted in committed batches, not bulk-loaded.
            let seed = try dir.write(
                "seed.csv", ledgerHeader + "\nseed,u,p,1,,2026-10-01T00:00:00Z,1,,,,,verified,,,\n")
            _ = try Importer().importFile(seed, kind: .transactions, into: store)
            var importer = Importer()
            importer.batchSize = 1_000
            importer.progressInterval = 7_000
            importer.progress = { _, _ in server.stop() }
            let source = try PostgresTests.source([(.transactions, PostgresTests.ledgerQuery("midstream_ledger"))])
            await #expect(throws: DatabaseSourceError.self) {
                _ = try await PostgresTests.importing(source, into: store, importer: importer)
            }
            try server.start()
            let partial = try store.ledger.counts().transactions
            #expect(partial > 1 && partial < 20_001)
            let summaries = try await PostgresTests.importing(source, into: store)
            #expect(summaries.first?.read == 20_000)
            #expect(try store.ledger.counts().transactions == 20_001)
            #expect(try PostgresTests.ledger(store).count == 20_001)
        }
    }
}
