import Foundation
import IAPReconTestSupport
import Testing

@testable import IAPRecon
@testable import ReconImport
@testable import ReconModel
@testable import ReconStorage

/// The backend exports its whole ledger again every night, often under a dated name: the re-export's rows stored
/// unchanged are not written again, whatever the file's name or the rows' lines, and the store ends as if every row
/// had been written.
@Suite struct ReexportTests {
    let dir = TemporaryDirectory("reexport")
    static let firstNight: Int64 = 1_795_219_200_000  // 2026-11-21T00:00:00Z
    static let day: Int64 = 86_400_000

    /// The first export: 4,500 purchases over three days (more than two chunks of rows), two of them twice.
    static let first: [String] = {
        var rows = (0..<4_500).map { row($0) }
        // A record id seen twice: the second row is the one stored.
        rows[9] = row(9, user: "early")
        rows[3_000] = row(9, user: "late")
        return rows
    }()

    /// The re-export, next night: two purchases inserted above every other row (all lines move), 59 rows changed in
    /// place, one row moved to the end, 30 new rows at the end; the twice-seen record's rows given in the other order
    /// and then a third; a record changed in the first chunk and given its stored row again in the third.
    static let second: [String] = {
        var rows = first
        for index in stride(from: 51, to: 4_500, by: 76) {
            rows[index] = row(index, status: "verified", delivered: true)
        }
        let moved = rows.remove(at: 200)
        rows.append(moved)
        rows[4_202] = row(9, user: "later")
        rows[120] = row(120, user: "changed")
        rows[4_102] = row(120)
        rows.insert(contentsOf: [row(9_000), row(9_001)], at: 0)
        rows += (9_002..<9_032).map { row($0) }
        return rows
    }()

    /// One ledger row of purchase `n`.
    static func row(_ n: Int, user: String? = nil, status: String = "pending", delivered: Bool = false) -> String {
        let day = 21 + n % 3
        let time = "2026-11-\(day)T0\(n % 10):00:00Z"
        let record = "r\(String(n + 100_000))"
        let product = ["coins_100", "coins_500", "gems"][n % 3]
        return "\(record),\(user ?? "u\(n % 40)"),\(product),\(2_000_000 + n),,\(time),1,Production,0.99,USD,USA,"
            + "\(status),\(delivered ? time : ""),,"
    }

    /// A configuration of the store `database`, reporting into `out`.
    func config(_ database: String, _ out: String) -> ReconConfig {
        ReconConfig.forTesting(databasePath: database, outputDirectory: dir.file(out))
    }

    /// Imports `rows` as the file `name` at `millis`.
    func importLedger(_ rows: [String], as name: String, into database: String, at millis: Int64) async throws {
        let path = try dir.write(name, ([ledgerHeader] + rows).joined(separator: "\n") + "\n")
        _ = try await config(database, "unused").dependencies(at: millis).importFiles(
            ImportRequest(transactions: [path]))
    }

    /// Reports as of `millis` into `out`; returns every CSV file written.
    func report(_ database: String, into out: String, at millis: Int64) async throws -> [String: String] {
        var config = config(database, out)
        config.asOf = millis
        _ = try await config.dependencies(at: millis, opening: .existing).report()
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.file(out)) where name.hasSuffix(".csv") {
            files[name] = try dir.read("\(out)/\(name)")
        }
        return files
    }

    /// Every ledger row's values (not where or when it was read, nor its row hash: the store writing every row had
    /// them forgotten, and the rows the re-export no longer has keep none there), and the record ids written at
    /// `millis`.
    func ledger(_ database: String, writtenAt millis: Int64) throws -> (rows: [String], written: Set<String>) {
        let store = try ReconStore(path: database, clock: ManualClock(millis: millis))
        let statement = try store.db.prepare(
            """
            SELECT record_id, user_id, product_id, transaction_id, original_transaction_id, purchase_date, quantity,
                environment, price_milli, currency, storefront, verification_status, delivered_at, finished_at,
                receipt_id, recon_verdict, recon_verification_id, imported_at
            FROM transactions ORDER BY record_id
            """)
        var rows: [String] = []
        var written: Set<String> = []
        while try statement.step() {
            rows.append((0..<17).map { statement.isNull($0) ? "NULL" : statement.text($0) }.joined(separator: "|"))
            if statement.int64(17) == millis { written.insert(statement.text(0)) }
        }
        return (rows, written)
    }

    /// The two nights on `database`: the first export, its report, the re-export (`secondName`), its report.
    func twoNights(_ database: String, secondName: String, label: String, everyRowWritten: Bool = false)
        async throws -> [String: String]
    {
        try await importLedger(Self.first, as: "ledger-2026-11-21.csv", into: database, at: Self.firstNight)
        _ = try await report(database, into: "\(label)-1", at: Self.firstNight + 3_600_000)
        if everyRowWritten {
            // No stored row is recognized: every row of the re-export is written, as an import always could.
            try ReconStore(path: database, clock: ManualClock(millis: 0)).db.execute(
                "UPDATE transactions SET row_hash = NULL")
        }
        try await importLedger(Self.second, as: secondName, into: database, at: Self.firstNight + Self.day)
        return try await report(database, into: "\(label)-2", at: Self.firstNight + Self.day + 3_600_000)
    }

    /// The record ids the re-export writes: those of its rows that differ from their record's stored row when they
    /// are read (an earlier row of the file may have changed it).
    static let expectedWritten: Set<String> = {
        var stored: [Substring: String] = [:]
        for row in first { stored[row.prefix { $0 != "," }] = row }
        var written: Set<String> = []
        for row in second {
            let record = row.prefix { $0 != "," }
            if stored[record] == row { continue }
            stored[record] = row
            written.insert(String(record))
        }
        return written
    }()

    /// Under another name or the same path, the re-export skips every unchanged row (each keeps its first import
    /// time) and leaves the ledger and every report as writing every row would.
    @Test(arguments: ["ledger-2026-11-22.csv", "ledger-2026-11-21.csv"])
    func aReexportSkipsItsUnchangedRowsAndEndsAsWritingEveryRow(secondName: String) async throws {
        let skipping = dir.file("skipping.sqlite")
        let writingAll = dir.file("writing-all.sqlite")
        let reports = try await twoNights(skipping, secondName: secondName, label: "skipping")
        let expected = try await twoNights(
            writingAll, secondName: secondName, label: "writing-all", everyRowWritten: true)
        let night = Self.firstNight + Self.day
        let (rows, written) = try ledger(skipping, writtenAt: night)
        #expect(written == Self.expectedWritten)
        #expect(rows == (try ledger(writingAll, writtenAt: night)).rows)
        #expect(rows.count == 4_500 - 1 + 32)
        #expect(written.count == 59 + 32 + 2)
        #expect(reports.keys.sorted() == expected.keys.sorted())
        for (name, text) in expected { #expect(reports[name] == text, "\(name)") }
        // The twice-seen and the changed-back records end as their last rows say.
        #expect(rows.contains { $0.hasPrefix("r100009|later|") })
        #expect(rows.contains { $0.hasPrefix("r100120|u0|") })
    }
}

extension PostgresTests {
    /// The re-export under another name into a store in PostgreSQL: its unchanged rows skipped, and the ledger and
    /// reports those of an SQLite store that wrote every row.
    @Suite struct Reexport {
        @Test func aReexportUnderAnotherNameInPostgreSQLEndsAsWritingEveryRow() async throws {
            let server = try PostgresServer.require()
            try server.psql("DROP DATABASE IF EXISTS reexport; CREATE DATABASE reexport;")
            let tests = ReexportTests()
            let postgres = server.url(database: "reexport")
            let sqlite = tests.dir.file("writing-all.sqlite")
            let reports = try await tests.twoNights(postgres, secondName: "ledger-2026-11-22.csv", label: "postgres")
            let expected = try await tests.twoNights(
                sqlite, secondName: "ledger-2026-11-22.csv", label: "sqlite", everyRowWritten: true)
            let night = ReexportTests.firstNight + ReexportTests.day
            let (rows, written) = try tests.ledger(postgres, writtenAt: night)
            #expect(written == ReexportTests.expectedWritten)
            #expect(rows == (try tests.ledger(sqlite, writtenAt: night)).rows)
            for (name, text) in expected { #expect(reports[name] == text, "\(name)") }
        }
    }
}
