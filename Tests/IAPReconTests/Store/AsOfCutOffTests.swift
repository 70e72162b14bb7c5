import Foundation
import IAPReconTestSupport
import Logging
import Testing

@testable import IAPRecon

/// SPEC §5: `--as-of` is a cut-off, and a report for a past as-of never rewrites the findings
/// history of the latest one.
@Suite struct AsOfCutOffTests {
    let dir = TemporaryDirectory("as-of")
    let logger = Logger.quiet
    static let header =
        "record_id,user_id,product_id,transaction_id,purchase_date,price,currency,verification_status,delivered_at,finished_at"
    static let t0: Int64 = 1_795_000_000_000
    static let day: Int64 = 86_400_000

    func importLedger(_ rows: [String]) async throws {
        let path = try dir.write("t.csv", ([Self.header] + rows).joined(separator: "\n") + "\n")
        let config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        _ = try await config.dependencies(at: 0).importFiles(ImportRequest(transactions: [path]))
    }

    func report(asOf: Int64) async throws -> [String: Any] {
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        config.asOf = asOf
        _ = try await config.dependencies(at: asOf, opening: .existing).report()
        let data = try Data(contentsOf: URL(fileURLWithPath: dir.file("out/run.json")))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func purchasesAfterTheCutOffDoNotEnterTheReport() async throws {
        let t0 = Self.t0
        try await importLedger([
            "r1,u1,coins,t1,\(t0),0.99,USD,verified,\(t0),\(t0)",
            "r2,u1,coins,t2,\(t0 + 2 * Self.day),1.99,USD,verified,\(t0 + 2 * Self.day),\(t0 + 2 * Self.day)",
        ])
        _ = try await report(asOf: t0 + Self.day)
        let revenue = try dir.read("out/revenue_daily.csv")
        #expect(revenue.contains("0.99"))
        #expect(!revenue.contains("1.99"))
    }

    @Test func deliveryAfterTheCutOffHadNotHappenedYet() async throws {
        let t0 = Self.t0
        try await importLedger(["r1,u1,coins,t1,\(t0),0.99,USD,verified,\(t0 + 3 * Self.day),\(t0 + 3 * Self.day)"])
        let then = try await report(asOf: t0 + 2 * Self.day)
        #expect((then["findings_by_code"] as? [String: Int])?["UNDELIVERED"] == 1)
    }

    @Test func pastReportNeverResolvesOrReopensTheLiveHistory() async throws {
        let t0 = Self.t0
        try await importLedger([
            "r1,u1,coins,t1,\(t0),0.99,USD,verified,\(t0),\(t0)",
            "r2,u1,coins,t1,\(t0),0.99,USD,verified,\(t0),\(t0)",
        ])
        let live = try await report(asOf: t0 + 2 * Self.day)
        #expect(live["new_findings"] as? Int == 1)
        // A report for a day before the purchase: no finding then, but the live one stays open.
        let past = try await report(asOf: t0 - Self.day)
        #expect(past["findings_by_code"] as? [String: Int] == [:])
        #expect(past["resolved_findings"] as? Int == 0)
        let next = try await report(asOf: t0 + 3 * Self.day)
        #expect(next["new_findings"] as? Int == 0)
        #expect(next["resolved_findings"] as? Int == 0)
        #expect(try dir.read("out/discrepancies.csv").contains(Timestamp.iso(t0 + 2 * Self.day)))
    }
}
