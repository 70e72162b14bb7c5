import Foundation
import IAPReconTestSupport
import Testing

@testable import IAPRecon
@testable import ReconModel
@testable import ReconStorage

/// The store's server lost in the middle of a run (CONTRACT §2 `STORE`): exit 1 in one line naming the server; what
/// the run had not committed is gone with its transaction, so the rerun completes and counts nothing twice.
@Suite(.serialized) struct PostgresStoreFaultTests {
    let dir = TemporaryDirectory("pg-store-faults")

    /// A ledger of `rows` consumable purchases, one a minute from 2026-11-01.
    func ledger(rows: Int) throws -> String {
        var text =
            "record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,environment,"
            + "price,currency,storefront,verification_status,delivered_at,finished_at,receipt_id\n"
        let start: Int64 = 1_793_491_200_000
        for row in 0..<rows {
            let at = Timestamp.iso(start + Int64(row) * 60_000)
            text +=
                "r\(row),u\(row % 997),coins_100,\(3_000_000 + row),,\(at),1,Production,0.99,USD,USA,verified,\(at),\(at),\n"
        }
        return try dir.write("ledger.csv", text)
    }

    @Test func aServerLostMidImportExitsOneAndTheRerunCountsNothingTwice() async throws {
        let server = try ThrowawayPostgres()
        defer { server.destroy() }
        let rows = 40_000
        let file = try ledger(rows: rows)
        let products = try dir.write(
            "p.csv", "product_id,type,price,currency,storefront,proceeds_rate\ncoins_100,consumable,0.99,USD,,\n")
        let url = server.url()
        let run = Task {
            try await runIAPReconOnItsOwnThread(["import", "--db", url, "--transactions", file, "--products", products])
        }
        // The import holds the writer's lock (key 0x6961707265630002) once its store is open and its schema made; the
        // load is under way a moment later.
        var waited = 0
        let writerLock = "locktype = 'advisory' AND granted AND classid = 1767993458 AND objid = 1700986882"
        while try server.psql("SELECT count(*) FROM pg_locks WHERE \(writerLock)")
            .trimmingCharacters(in: .whitespacesAndNewlines) != "1"
        {
            try await Task.sleep(for: .milliseconds(20))
            waited += 1
            try #require(waited < 3_000, "the import never took its lock")
        }
        try await Task.sleep(for: .milliseconds(300))
        server.stop()
        let cut = try await run.value
        try server.start()
        #expect(cut.exitCode == 1, "\(cut.stderr)")
        let lines = cut.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(cut.stderr)")
        #expect(lines.first?.contains("lost postgresql://127.0.0.1:\(server.port)/postgres") == true, "\(cut.stderr)")
        #expect(!cut.stderr.contains(server.password))
        // Nothing of the cut load was committed.
        #expect(try ReconStore(path: url, clock: SystemClock(), .existing).ledger.counts().transactions == 0)

        let rerun = try runIAPRecon(["import", "--db", url, "--transactions", file, "--products", products])
        #expect(rerun.exitCode == 0, "\(rerun.stderr)")
        #expect(try ReconStore(path: url, clock: SystemClock(), .existing).ledger.counts().transactions == rows)
        let sqlite = dir.file("s.sqlite")
        #expect(
            try runIAPRecon(["import", "--db", sqlite, "--transactions", file, "--products", products]).exitCode == 0)
        for (name, store) in [("pg", url), ("sqlite", sqlite)] {
            let report = try runIAPRecon(
                ["report", "--db", store, "--out", dir.file(name), "--as-of", "2026-12-01T00:00:00Z"])
            #expect(report.exitCode == 0, "\(report.stderr)")
        }
        for name in ["revenue_daily.csv", "discrepancies.csv", "deferred_revenue.csv"] {
            #expect(try dir.read("pg/" + name) == dir.read("sqlite/" + name), "\(name)")
        }
    }
}
