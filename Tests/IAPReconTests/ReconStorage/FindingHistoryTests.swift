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

/// Findings persist across runs: first seen, last seen, resolved when no longer found.
@Suite struct FindingHistoryTests {
    let fixture = LedgerFixture("history")
    var dir: TemporaryDirectory { fixture.dir }
    let t0: Int64 = 1_795_000_000_000
    let day: Int64 = 86_400_000
    /// One user's two ledger rows of one transaction: a duplicate record.
    var duplicated: [String] {
        ["r1,u1,coins,t1,\(t0),0.99,USD,verified,\(t0),\(t0)", "r2,u1,coins,t1,\(t0),0.99,USD,verified,\(t0),\(t0)"]
    }

    /// The fingerprints of the history's findings that `user` is one of the users of, in order.
    func findings(of user: String) throws -> [String] {
        try ReconStore(path: dir.file("s.sqlite")).lookup.findingHistory(transactionIDs: [], userID: user).map(
            \.finding.fingerprint
        )
        .sorted()
    }

    /// Support finds a finding by any of its users: those of a finding found on a first report, and of one found
    /// when a later report judged only what changed, whichever of its users is asked about.
    @Test func everyUserOfAFindingFindsIt() async throws {
        let twoUsers = [
            "r1,u1,coins,t1,\(t0),0.99,USD,verified,\(t0),\(t0)", "r2,u2,coins,t1,\(t0),0.99,USD,verified,\(t0),\(t0)",
        ]
        let filler = (10..<30).map { "f\($0),f\($0),coins,9\($0),\(t0),0.99,USD,verified,\(t0),\(t0)" }
        try await fixture.importLedger(twoUsers + filler)
        _ = try await fixture.report(asOf: t0 + 2 * day)
        // The duplicate and the shared transaction, for either user.
        let first = try findings(of: "u2")
        #expect(first.count == 2)
        #expect(try findings(of: "u1") == first)
        // A third user delivered the same transaction: new findings (their records changed), the report judging
        // only t1 again.
        try await fixture.importLedger(twoUsers + filler + ["r3,u3,coins,t1,\(t0),0.99,USD,verified,\(t0),\(t0)"])
        let next = try await fixture.report(asOf: t0 + 3 * day)
        #expect(IncrementalStateTests().detect(next)["incremental"] == 1)
        let third = try findings(of: "u3")
        #expect(third.count == 2 && Set(third).isDisjoint(with: first))
        // The first two users find the new ones and the resolved ones.
        #expect(try findings(of: "u1") == (first + third).sorted())
        #expect(try findings(of: "u2") == (first + third).sorted())
        #expect(try findings(of: "f10").isEmpty)
    }

    @Test func newThenSeenAgainThenResolved() async throws {
        try await fixture.importLedger(duplicated)
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
        #expect(try workbook.csv(sheet: 4).contains("DUPLICATE_RECORD,high,t1"))
        #expect(try workbook.csv(sheet: 4).contains(",resolved"))
        #expect(try dir.read("out/discrepancies.csv").split(separator: "\r\n").count == 1)
    }

    /// A resolved finding found again starts anew: new again, first seen by the run that found it again.
    ///
    /// Its users come back as they were stored (a space inside an id is part of it).
    @Test func aResolvedFindingFoundAgainStartsAnew() async throws {
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
        #expect(try workbook.csv(sheet: 4).contains("DUPLICATE_RECORD,high,t1,t1,user one"))
        #expect(try workbook.csv(sheet: 4).hasSuffix(",new\n"))
    }

    /// The history of the findings as the store keeps it, by fingerprint: the raw `last_seen_at`, and the last
    /// sighting as the store answers it (``FindingsRow``).
    func history(_ path: String) throws -> [(stored: Int64, answered: Int64, resolved: Int64?, detail: String)] {
        let store = try ReconStore(path: path)
        let stmt = try store.db.prepare(
            "SELECT f.last_seen_at AS stored_last_seen, \(FindingsRow.columns) FROM findings f ORDER BY f.fingerprint")
        var rows: [(Int64, Int64, Int64?, String)] = []
        while try stmt.step() {
            guard let history = FindingsRow.read(stmt) else { continue }
            rows.append((stmt.int64(0), history.lastSeenAt, history.resolvedAt, history.finding.detail))
        }
        return rows
    }

    /// A finding that states an age is not written again because a night made it older: the store words it at its
    /// last sighting, as that report did.
    @Test func anAgedFindingIsWordedAtItsLastSighting() async throws {
        try await fixture.importLedger(["r3,u3,coins,t3,\(t0),0.99,USD,verified,,"])
        _ = try await fixture.report(asOf: t0 + 2 * day)
        let first = try history(dir.file("s.sqlite"))
        _ = try await fixture.report(asOf: t0 + 3 * day)
        let second = try history(dir.file("s.sqlite"))
        #expect(second.count == 1)
        #expect(second.first?.stored == t0 + 2 * day, "not written again")
        #expect(second.first?.answered == t0 + 3 * day)
        let detail = try #require(second.first?.detail)
        #expect(detail != first.first?.detail, "worded at the second report: \(detail)")
        #expect(detail.contains("3 days"), "\(detail)")
        #expect(try dir.read("out/discrepancies.csv").contains(detail))
    }

    /// A report writes the findings that changed, not every open one again: an open finding is last seen by the latest
    /// recording, and once resolved, by the recording before the one that resolved it.
    @Test func anOpenFindingThatReadsTheSameIsNotWrittenAgain() async throws {
        try await fixture.importLedger(duplicated)
        _ = try await fixture.report(asOf: t0 + 2 * day)
        let second = try await fixture.report(asOf: t0 + 3 * day)
        #expect(second["new_findings"] as? Int == 0)
        let store = dir.file("s.sqlite")
        let open = try history(store)
        #expect(open.count == 1)
        #expect(open.first?.stored == t0 + 2 * day, "written by the first report only")
        #expect(open.first?.answered == t0 + 3 * day, "seen by the second")
        #expect(try ReconStore(path: store).findings.latestFindingsAsOf() == t0 + 3 * day)

        try await fixture.importLedger(["r2,u1,coins,t2,\(t0),0.99,USD,verified,\(t0),\(t0)"])
        let third = try await fixture.report(asOf: t0 + 5 * day)
        #expect(third["resolved_findings"] as? Int == 1)
        let resolved = try history(store)
        #expect(resolved.first?.stored == t0 + 3 * day)
        #expect(resolved.first?.answered == t0 + 3 * day)
        #expect(resolved.first?.resolved == t0 + 5 * day)
    }

    /// What undoes the migration that records the findings where they changed (`issue24-findings-recorded`).
    static let withoutFindingsRecorded = """
        DROP TABLE findings_recorded; DROP INDEX findings_open; DROP INDEX findings_by_resolved_run;
        ALTER TABLE findings DROP COLUMN aged_before; ALTER TABLE findings DROP COLUMN aged_since;
        ALTER TABLE findings DROP COLUMN aged_after;
        DELETE FROM schema_migrations WHERE name = 'issue24-findings-recorded';
        """

    /// A store of the version that wrote every open finding on every report upgrades with its latest recording, and
    /// its history goes on: nothing new, the fixed finding resolved, last seen by the report before.
    @Test func aStoreOfThePreviousVersionKeepsItsHistory() async throws {
        try await fixture.importLedger(
            duplicated + [
                "r3,u3,coins,t3,\(t0),0.99,USD,verified,,"
            ])
        _ = try await fixture.report(asOf: t0 + 2 * day)
        let store = dir.file("s.sqlite")
        // The previous version rewrote every open finding's last sighting on every report.
        try ReconStore(path: store).db.execute(
            "UPDATE findings SET last_seen_at = \(t0 + 3 * day), last_seen_run = last_seen_run + 1; "
                + RevenuePartsByLineTests.withoutRevenuePartsByLine + Self.withoutFindingsRecorded)
        #expect(try ReconStore(path: store).findings.latestFindingsAsOf() == t0 + 3 * day)
        try await fixture.importLedger(["r2,u1,coins,t2,\(t0),0.99,USD,verified,\(t0),\(t0)"])
        let next = try await fixture.report(asOf: t0 + 4 * day)
        #expect(next["new_findings"] as? Int == 0)
        #expect(next["resolved_findings"] as? Int == 1)
        let rows = try history(store)
        #expect(rows.map(\.answered).sorted() == [t0 + 3 * day, t0 + 4 * day])
        #expect(rows.compactMap(\.resolved) == [t0 + 4 * day])
    }
}
