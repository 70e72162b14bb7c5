import Foundation
import IAPReconTestSupport
import Testing

/// The lookup says how fresh the store is: the last run, when it finished and the as-of it judged at.
@Suite struct LookupFreshnessTests {
    let dir = TemporaryDirectory("lookup-freshness")

    func lookup() throws -> [String] {
        let result = try runIAPRecon(["lookup", "--db", dir.file("s.sqlite"), "--user", "u1"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func theSecondLineSaysWhenTheStoreWasLastUpdated() throws {
        let ledger = try dir.write(
            "tx.csv",
            CommandLineTests.header + "\nr1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,\n")
        let imported = try runIAPRecon(["import", "--db", dir.file("s.sqlite"), "--transactions", ledger])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        let beforeARun = try lookup()
        #expect(
            beforeARun.prefix(3) == [
                "user u1: charged for 1 purchase, delivered 0 of 1; NOT DELIVERED: t1",
                "store: no run recorded yet; Apple's answers and findings come with the first run", "",
            ])

        let run = try runIAPRecon([
            "run", "--db", dir.file("s.sqlite"), "--out", dir.file("out"), "--as-of", "2026-11-21T00:00:00Z",
        ])
        #expect([0, 3].contains(run.exitCode), "\(run.stderr)")
        let line = try #require(try lookup().dropFirst().first)
        #expect(
            line == "store: as of 2026-11-21T00:00:00Z, its latest run (run); anything later shows after the next run")

        // A rerun for an earlier as-of (a month-end report) does not make the store look older.
        let rerun = try runIAPRecon([
            "report", "--db", dir.file("s.sqlite"), "--out", dir.file("month-end"), "--as-of", "2026-11-01T00:00:00Z",
        ])
        #expect([0, 3].contains(rerun.exitCode), "\(rerun.stderr)")
        #expect(try lookup().dropFirst().first == line)

        let json = try runIAPRecon(["lookup", "--db", dir.file("s.sqlite"), "--user", "u1", "--format", "json"])
        #expect(json.stdout.contains("\"store\" : \"store: as of 2026-11-21T00:00:00Z, its latest run (run);"))
    }
}
