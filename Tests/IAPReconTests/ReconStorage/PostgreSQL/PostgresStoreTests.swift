import Foundation
import IAPReconTestSupport
import Testing

@testable import IAPRecon
@testable import ReconImport
@testable import ReconModel
@testable import ReconStorage

extension PostgresTests {
    /// The store in PostgreSQL (CONTRACT §2 `STORE`), on a real server: each test in a database of its own.
    @Suite struct Store {
        static let clock = ManualClock(millis: 1_795_176_000_000)

        /// A new, empty database on the suite's server, and its URL.
        func database(_ name: String) throws -> String {
            let server = try PostgresServer.require()
            try server.psql("DROP DATABASE IF EXISTS \(name); CREATE DATABASE \(name);")
            return server.url(database: name)
        }

        /// SQLite sorts NULL first and text by its bytes; the same statement on PostgreSQL, saying where NULLs go and
        /// with the dialect's text column, must give the same order, or reports would differ between stores
        /// (https://www.sqlite.org/datatype3.html "Sort Order").
        @Test func nullsAndTextSortAsInSQLite() throws {
            let sqlite = try ReconStore(path: ":memory:", clock: Self.clock)
            let postgres = try ReconStore(path: try database("sorting"), clock: Self.clock)
            var orders: [[String]] = []
            for store in [sqlite, postgres] {
                try store.db.execute([
                    "CREATE TEMP TABLE words (word \(store.db.dialect.text), n \(store.db.dialect.integer))",
                    "INSERT INTO words VALUES ('b', 2), ('B', NULL), (NULL, 1), ('a', 3), ('Á', NULL), ('', 0)",
                ])
                let select = try store.db.prepare(
                    "SELECT COALESCE(word, '-') || ':' || COALESCE(CAST(n AS TEXT), '-') FROM words "
                        + "ORDER BY n DESC NULLS LAST, word NULLS FIRST")
                var rows: [String] = []
                while try select.step() { rows.append(select.text(0)) }
                let byWord = try store.db.prepare(
                    "SELECT COALESCE(word, '-') FROM words ORDER BY word NULLS FIRST, n NULLS FIRST")
                while try byWord.step() { rows.append(byWord.text(0)) }
                orders.append(rows)
            }
            #expect(orders[0] == ["a:3", "b:2", "-:1", ":0", "B:-", "Á:-", "-", "", "B", "a", "b", "Á"])
            #expect(orders[1] == orders[0])
        }

        /// Rows a transaction inserts by a declared INSERT (``RowInsert``) go by `COPY` (``PostgresCopyRows``) and read back as they were written: texts with
        /// the bytes the text format escapes, NULLs, the integers' extremes, more rows than one batch; a statement
        /// reading the table sees them all, and a rollback takes them away.
        @Test func rowsSentByCopyReadBackAsWritten() throws {
            let store = try ReconStore(path: try database("copyrows"), clock: Self.clock)
            try store.db.execute("CREATE TEMP TABLE copied (n BIGINT, word TEXT)")
            let words = ["tab\there", "line\nfeed\r\n", "back\\slash \\N", "", "é ü 𝄞", "\\."]
            let insert = try store.db.prepare(RowInsert(into: "copied", ["n", "word"]))
            try store.db.execute("BEGIN")
            var written: [String] = []
            for row in 0..<60_000 {
                let number: Int64 = row == 0 ? .min : row == 1 ? .max : Int64(row)
                let word: SQLValue = row % 7 == 3 ? .null : .text(words[row % words.count])
                try insert.run([.integer(number), word])
                written.append("\(number):\(word)")
            }
            let read = try store.db.prepare("SELECT n, word FROM copied ORDER BY n")
            var back: [String] = []
            while try read.step() {
                let word: SQLValue = read.isNull(1) ? .null : .text(read.text(1))
                back.append("\(read.int64(0)):\(word)")
            }
            #expect(back == written.sorted { Int64($0.prefix { $0 != ":" })! < Int64($1.prefix { $0 != ":" })! })
            try store.db.execute("ROLLBACK")
            #expect(try store.db.scalar("SELECT count(*) FROM copied") == 0)
        }

        /// Rows that break a key, sent by `COPY` without waiting, fail the statement after them (here the commit)
        /// with the server's words and the copy named; nothing of the transaction stays, and the connection goes on.
        @Test func aCopyThatBreaksAKeyFailsTheNextStatementAndNothingStays() throws {
            let store = try ReconStore(path: try database("copykey"), clock: Self.clock)
            try store.db.execute("CREATE TABLE keyed (id INTEGER PRIMARY KEY, word TEXT)")
            let insert = try store.db.prepare(RowInsert(into: "keyed", ["id", "word"]))
            let error = #expect(throws: StoreError.self) {
                try store.db.transaction {
                    for id in [1, 2, 2, 3] { try insert.run([.integer(Int64(id)), .text("w\(id)")]) }
                }
            }
            let text = error?.errorDescription ?? ""
            #expect(text.contains("duplicate key"), "\(text)")
            #expect(text.contains("COPY keyed"), "\(text)")
            #expect(try store.db.scalar("SELECT count(*) FROM keyed") == 0)
            try store.db.transaction { try insert.run([.integer(7), .text("w7")]) }
            #expect(try store.db.scalar("SELECT count(*) FROM keyed") == 1)
        }

        /// The store plans for cached pages (`random_page_cost` 1.1) unless the server's administrator set a value,
        /// here for the database.
        @Test func pagesArePricedAsCachedUnlessTheAdministratorChose() throws {
            func pageCost(_ store: ReconStore) throws -> String {
                let show = try store.db.prepare("SHOW random_page_cost")
                _ = try show.step()
                return show.text(0)
            }
            let untuned = try ReconStore(path: try database("pagecost"), clock: Self.clock)
            #expect(try pageCost(untuned) == "1.1")
            try PostgresServer.require().psql("ALTER DATABASE pagecost SET random_page_cost = 3")
            let tuned = try ReconStore(path: try PostgresServer.require().url(database: "pagecost"), clock: Self.clock)
            #expect(try pageCost(tuned) == "3")
        }

        @Test func aStoreWrittenByANewerVersionIsRefusedInOneLine() throws {
            let url = try database("newer")
            _ = try ReconStore(path: url, clock: Self.clock)
            try PostgresServer.require().psql(
                "INSERT INTO schema_migrations (seq, name, applied_at) VALUES (1000, 'issue99-future', 0)",
                database: "newer")
            let error = #expect(throws: StoreError.self) { try ReconStore(path: url, clock: Self.clock, .existing) }
            let text = error?.errorDescription ?? ""
            #expect(text.contains("has schema version \(ReconStore.schemaVersion + 1)"))
            #expect(!text.contains("\n"))
            #expect(!text.contains(try PostgresServer.require().password))
        }

        @Test func anotherApplicationsTablesOfTheSameNamesAreRefusedAndLeftAlone() throws {
            let url = try database("othertables")
            try PostgresServer.require().psql(
                "CREATE TABLE transactions (id serial PRIMARY KEY, amount numeric); INSERT INTO transactions (amount) VALUES (1.5);",
                database: "othertables")
            let error = #expect(throws: StoreError.self) { try ReconStore(path: url, clock: Self.clock) }
            #expect(error?.errorDescription?.contains("holds tables iap-recon did not create (transactions)") == true)
            let tables = try PostgresServer.require().psql(
                "SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables "
                    + "WHERE table_schema = 'public'", database: "othertables")
            #expect(tables.trimmingCharacters(in: .whitespacesAndNewlines) == "transactions")
            let amount = try PostgresServer.require().psql("SELECT amount FROM transactions", database: "othertables")
            #expect(amount.trimmingCharacters(in: .whitespacesAndNewlines) == "1.5")
        }

        @Test func commandsThatNeedAStoreDoNotCreateOne() throws {
            let url = try database("absent")
            let error = #expect(throws: StoreError.self) { try ReconStore(path: url, clock: Self.clock, .readOnly) }
            #expect(error == .noStore(path: "postgresql://127.0.0.1:\(try PostgresServer.require().port)/absent"))
            let tables = try PostgresServer.require().psql(
                "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'", database: "absent")
            #expect(tables.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        }

        /// The writer's lock is a session advisory lock: a second writer is refused naming the first (host, pid,
        /// since), and the lock goes with the first's connection.
        @Test func aSecondWriterIsRefusedNamingTheHolderUntilItsConnectionEnds() throws {
            let url = try database("locking")
            var first: ReconStore? = try ReconStore(path: url, clock: Self.clock)
            var lock: RunLock? = try RunLock(
                store: try #require(first), holder: "iap-recon run (pid 4242 on db-1) since T")
            let second = try ReconStore(path: url, clock: Self.clock)
            let error = #expect(throws: StoreError.self) { try RunLock(store: second, holder: "iap-recon import") }
            #expect(error == .locked(holder: "iap-recon run (pid 4242 on db-1) since T"))
            // A reader never waits for it.
            let reader = try ReconStore(path: url, clock: Self.clock, .readOnly)
            #expect(try reader.ledger.counts().transactions == 0)
            _ = lock
            lock = nil
            first = nil
            _ = first
            #expect(throws: Never.self) { _ = try RunLock(store: second, holder: "iap-recon import") }
        }

        /// A holder killed by SIGKILL keeps the lock until its backend notices.
        ///
        /// A writer that finds the holder's
        /// process gone on its own host waits a few seconds, ends that backend and takes the lock; a holder that still
        /// runs (here: process 1) is refused at once, as one on another host is.
        @Test func aWriterTakesTheLockOfAHolderWhoseProcessIsGone() throws {
            let url = try database("dead_holder")
            let host = ProcessInfo.processInfo.hostName
            let exited = Process()
            exited.executableURL = URL(fileURLWithPath: "/bin/true")
            try exited.run()
            exited.waitUntilExit()
            let gone = exited.processIdentifier
            let holder = try ReconStore(path: url, clock: Self.clock)
            let held = try RunLock(store: holder, holder: "iap-recon run (pid \(gone) on \(host)) since T")
            let second = try ReconStore(path: url, clock: Self.clock)
            let started = ContinuousClock.now
            #expect(throws: Never.self) { _ = try RunLock(store: second, holder: "iap-recon import") }
            let waited = ContinuousClock.now - started
            #expect(waited >= ReconStore.deadHolderWait && waited < .seconds(15), "\(waited)")
            _ = held
            for (index, line) in [
                "iap-recon run (pid 1 on \(host)) since T", "iap-recon run (pid \(gone) on other-host) since T",
            ].enumerated() {
                let url = try database("live_holder_\(index)")
                let first = try ReconStore(path: url, clock: Self.clock)
                let lock = try RunLock(store: first, holder: line)
                let started = ContinuousClock.now
                let error = #expect(throws: StoreError.self) {
                    try RunLock(store: try ReconStore(path: url, clock: Self.clock), holder: "iap-recon import")
                }
                #expect(error == .locked(holder: line))
                #expect(ContinuousClock.now - started < .seconds(2))
                _ = lock
            }
        }

        /// A first load appends, then builds the unique index on record ids; a record id seen twice makes that fail,
        /// which PostgreSQL would let abort the whole load: the last row is kept, as in SQLite
        /// (``LedgerLoadTests/aFirstLoadKeepsTheLastRowOfARepeatedRecord()``).
        @Test func aFirstLoadThatSeesARecordTwiceKeepsItsLastRow() throws {
            let dir = TemporaryDirectory("pg-first-load")
            let header =
                "record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,"
                + "environment,price,currency,storefront,verification_status,delivered_at,finished_at,receipt_id\n"
            let path = try dir.write(
                "t.csv",
                header + "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,\n"
                    + "r2,u2,p,t2,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,\n"
                    + "r1,u9,p,t1,,2026-11-20T00:00:00Z,1,production,0.99,USD,USA,verified,,,\n")
            let store = try ReconStore(path: try database("firstload"), clock: Self.clock)
            _ = try Importer().run(ImportRequest(transactions: [path]), into: store)
            let rows = try store.db.prepare(
                "SELECT record_id, user_id, verification_status FROM transactions ORDER BY record_id")
            var stored: [String] = []
            while try rows.step() { stored.append("\(rows.text(0)) \(rows.text(1)) \(rows.text(2))") }
            #expect(stored == ["r1 u9 verified", "r2 u2 pending"])
            // The unique index exists: a later import upserts by record id.
            _ = try Importer().run(ImportRequest(transactions: [path]), into: store)
            #expect(try store.ledger.counts().transactions == 2)
        }

        /// `serve` and `lookup` ask the same statements again and again: a read-only store prepares each once per
        /// connection and runs it again by name, so the server parses and plans it once (the support page's share of
        /// SQLite's lookups per second rests on it: `make bench-serve`).
        @Test func aReadOnlyStorePreparesEachStatementOncePerConnection() throws {
            let url = try database("prepared")
            _ = try ReconStore(path: url, clock: Self.clock)
            let reader = try ReconStore(path: url, clock: Self.clock, .readOnly)
            let asked = "SELECT COUNT(*) FROM transactions WHERE user_id = $1"
            for user in ["u1", "u2", "u3"] { #expect(try reader.db.scalar(asked, [.text(user)]) == 0) }
            let kept = try reader.db.scalar(
                "SELECT COUNT(*) FROM pg_prepared_statements WHERE statement = $1", [.text(asked)])
            #expect(kept == 1)
            let other = try ReconStore(path: url, clock: Self.clock, .readOnly)
            #expect(
                try other.db.scalar(
                    "SELECT COUNT(*) FROM pg_prepared_statements WHERE statement = $1", [.text(asked)]) == 0)
        }

        @Test func aReadOnlyStoreCannotWrite() throws {
            let url = try database("readonly")
            _ = try ReconStore(path: url, clock: Self.clock)
            let reader = try ReconStore(path: url, clock: Self.clock, .readOnly)
            #expect(throws: StoreError.self) {
                try reader.db.execute("INSERT INTO import_files (path) VALUES ('x')")
            }
        }
    }
}
