import Foundation
import IAPReconTestSupport
import Testing

/// The judge's verdicts held to the bytes recorded before its redesign for speed.
///
/// A faster judge must say exactly what this one says. Every CSV of the demo (judged from scratch), then of a later
/// night on its store judged incrementally and, on a copy, from scratch (`--full`): both nights to the same recorded
/// bytes.
///
/// The recordings (`Snapshots/judge-*.csv`) were made with `RECORD_SNAPSHOTS=1` by the judge as it was; a difference
/// is a changed verdict, not a test to record again. `make golden` holds the 1,000,000-row ledger's reports to their
/// recorded hashes the same way (`scripts/judge-golden.sh`).
@Suite struct JudgeGoldenTests {
    let dir = TemporaryDirectory("judge-golden")

    /// Every CSV the demo writes; the workbook and `run.json` record the run itself.
    static let reports = [
        "consumption_requests.csv", "deferred_revenue.csv", "discrepancies.csv", "financial_reconciliation.csv",
        "month_close.csv", "rejected.csv", "revenue_changes.csv", "revenue_daily.csv", "revenue_schedule.csv",
        "sales_reconciliation.csv", "subscriptions.csv",
    ]

    /// The report `name` in `folder`, without the temporary folder's path (`rejected.csv` names the input file).
    func report(_ folder: String, _ name: String) throws -> String {
        try dir.read(folder + "/" + name).replacingOccurrences(of: dir.file(""), with: "/")
    }

    @Test func theDemoAndALaterNightReportTheRecordedBytes() throws {
        let demo = try runIAPRecon(["demo", "--out", dir.file("demo"), "--purchases", "1000", "--seed", "7"])
        #expect(demo.exitCode == 0, "\(demo.stderr)")
        for name in Self.reports {
            let mismatch = snapshotMismatch(try report("demo", name), named: "judge-demo-" + name)
            #expect(mismatch == nil, "\(mismatch ?? "")")
        }
        // A week later: what came due, what aged, judged again on the same store and on a copy from scratch. Before
        // the day the goldens were recorded: the simulator signs at the wall clock, and what it signed after the
        // as-of is not seen.
        let store = dir.file("demo/demo.sqlite")
        try FileManager.default.copyItem(atPath: store, toPath: dir.file("full.sqlite"))
        let later = "2026-11-27T00:00:00Z"
        let incremental = try runIAPRecon(["report", "--db", store, "--as-of", later, "--out", dir.file("night")])
        #expect([0, 3].contains(incremental.exitCode), "\(incremental.stderr)")
        let full = try runIAPRecon(
            ["report", "--db", dir.file("full.sqlite"), "--full", "--as-of", later, "--out", dir.file("full")])
        #expect([0, 3].contains(full.exitCode), "\(full.stderr)")
        for name in Self.reports {
            let mismatch = snapshotMismatch(try report("night", name), named: "judge-night-" + name)
            #expect(mismatch == nil, "\(mismatch ?? "")")
            #expect(try report("full", name) == report("night", name), "\(name)")
        }
    }
}
