import Foundation
import IAPReconTestSupport
import Logging
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

/// CONTRACT §5: `--as-of` is a cut-off, and a report for a past as-of never rewrites the findings
/// history of the latest one.
@Suite struct AsOfCutOffTests {
    let fixture = LedgerFixture("as-of")
    var dir: TemporaryDirectory { fixture.dir }
    static let t0: Int64 = 1_795_000_000_000
    static let day: Int64 = 86_400_000

    @Test func purchasesAfterTheCutOffDoNotEnterTheReport() async throws {
        let t0 = Self.t0
        try await fixture.importLedger([
            "r1,u1,coins,t1,\(t0),0.99,USD,verified,\(t0),\(t0)",
            "r2,u1,coins,t2,\(t0 + 2 * Self.day),1.99,USD,verified,\(t0 + 2 * Self.day),\(t0 + 2 * Self.day)",
        ])
        _ = try await fixture.report(asOf: t0 + Self.day)
        let revenue = try dir.read("out/revenue_daily.csv")
        #expect(revenue.contains("0.99"))
        #expect(!revenue.contains("1.99"))
    }

    @Test func deliveryAfterTheCutOffHadNotHappenedYet() async throws {
        let t0 = Self.t0
        try await fixture.importLedger([
            "r1,u1,coins,t1,\(t0),0.99,USD,verified,\(t0 + 3 * Self.day),\(t0 + 3 * Self.day)"
        ])
        let then = try await fixture.report(asOf: t0 + 2 * Self.day)
        #expect((then["findings_by_code"] as? [String: Int])?["UNDELIVERED"] == 1)
    }

    @Test func pastReportNeverResolvesOrReopensTheLiveHistory() async throws {
        let t0 = Self.t0
        try await fixture.importLedger([
            "r1,u1,coins,t1,\(t0),0.99,USD,verified,\(t0),\(t0)",
            "r2,u1,coins,t1,\(t0),0.99,USD,verified,\(t0),\(t0)",
        ])
        let live = try await fixture.report(asOf: t0 + 2 * Self.day)
        #expect(live["new_findings"] as? Int == 1)
        // A report for a day before the purchase: no finding then, but the live one stays open.
        let past = try await fixture.report(asOf: t0 - Self.day)
        #expect(past["findings_by_code"] as? [String: Int] == [:])
        #expect(past["resolved_findings"] as? Int == 0)
        let next = try await fixture.report(asOf: t0 + 3 * Self.day)
        #expect(next["new_findings"] as? Int == 0)
        #expect(next["resolved_findings"] as? Int == 0)
        #expect(try dir.read("out/discrepancies.csv").contains(Timestamp.iso(t0 + 2 * Self.day)))
    }
}
