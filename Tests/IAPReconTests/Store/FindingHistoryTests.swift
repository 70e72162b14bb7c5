import Foundation
import IAPReconTestSupport
import Logging
import Testing

@testable import IAPRecon

/// Findings persist across runs: first seen, last seen, resolved when no longer found.
@Suite struct FindingHistoryTests {
    let fixture = LedgerFixture("history")
    var dir: TemporaryDirectory { fixture.dir }

    @Test func newThenSeenAgainThenResolved() async throws {
        let t0: Int64 = 1_795_000_000_000
        try await fixture.importLedger([
            "r1,u1,coins,t1,\(t0),0.99,USD,verified,\(t0),\(t0)",
            "r2,u1,coins,t1,\(t0),0.99,USD,verified,\(t0),\(t0)",
        ])
        let first = try await fixture.report(asOf: t0 + 86_400_000 * 2)
        #expect(first["new_findings"] as? Int == 1)
        #expect(first["resolved_findings"] as? Int == 0)
        #expect((first["findings_by_code"] as? [String: Int]) == ["DUPLICATE_RECORD": 1])
        let detectedAt = try dir.read("out/discrepancies.csv").split(separator: "\r\n")[1]
        #expect(detectedAt.contains("2026-11-20T11:06:40Z"))

        let second = try await fixture.report(asOf: t0 + 86_400_000 * 3)
        #expect(second["new_findings"] as? Int == 0)
        #expect(second["resolved_findings"] as? Int == 0)
        // First seen stays the first run's time.
        #expect(try dir.read("out/discrepancies.csv").contains("2026-11-20T11:06:40Z"))

        // The backend fixes the duplicate: the finding is resolved by the next run.
        try await fixture.importLedger(["r2,u1,coins,t2,\(t0),0.99,USD,verified,\(t0),\(t0)"])
        let third = try await fixture.report(asOf: t0 + 86_400_000 * 4)
        #expect(third["new_findings"] as? Int == 0)
        #expect(third["resolved_findings"] as? Int == 1)
        #expect((third["findings_by_code"] as? [String: Int]) == [:])
        let workbook = XLSXArchive(path: dir.file("out/reconciliation.xlsx"))
        #expect(try workbook.csv(sheet: 1).contains("Resolved since previous run,1 {0}"))
        #expect(try workbook.csv(sheet: 3).contains("DUPLICATE_RECORD,high,t1"))
        #expect(try workbook.csv(sheet: 3).contains(",resolved"))
        #expect(try dir.read("out/discrepancies.csv").split(separator: "\r\n").count == 1)
    }

    /// A resolved finding found again starts anew: new again, first seen by the run that found it again.
    ///
    /// Its users come back as they were stored (a space inside an id is part of it).
    @Test func aResolvedFindingFoundAgainStartsAnew() async throws {
        let t0: Int64 = 1_795_000_000_000
        let duplicate = [
            "r1,user one,coins,t1,\(t0),0.99,USD,verified,\(t0),\(t0)",
            "r2,user one,coins,t1,\(t0),0.99,USD,verified,\(t0),\(t0)",
        ]
        try await fixture.importLedger(duplicate)
        _ = try await fixture.report(asOf: t0 + 86_400_000 * 2)
        try await fixture.importLedger(["r2,user one,coins,t2,\(t0),0.99,USD,verified,\(t0),\(t0)"])
        let fixed = try await fixture.report(asOf: t0 + 86_400_000 * 3)
        #expect(fixed["resolved_findings"] as? Int == 1)

        try await fixture.importLedger(duplicate)
        let again = try await fixture.report(asOf: t0 + 86_400_000 * 4)
        #expect(again["new_findings"] as? Int == 1)
        #expect(again["resolved_findings"] as? Int == 0)
        let rows = try dir.read("out/discrepancies.csv").split(separator: "\r\n")
        #expect(rows.count == 2)
        #expect(rows[1].hasPrefix("DUPLICATE_RECORD,high,t1,t1,user one,coins,"))
        #expect(rows[1].contains(",2026-11-22T11:06:40Z,"), "first seen by the third run (t0 + 4 days)")
        let workbook = XLSXArchive(path: dir.file("out/reconciliation.xlsx"))
        #expect(try workbook.csv(sheet: 3).contains("DUPLICATE_RECORD,high,t1,t1,user one"))
        #expect(try workbook.csv(sheet: 3).hasSuffix(",new\n"))
    }
}
