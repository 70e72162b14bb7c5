import Foundation
import IAPRecon
import IAPReconTestSupport
import Testing

/// `iap-recon demo`: a newcomer's one command produces every finding code, reproducibly.
@Suite struct DemoTests {
    let dir = TemporaryDirectory("demo")

    @Test func producesEveryFindingCodeAndTheSameBytesForTheSameSeed() throws {
        let first = try runIAPRecon(["demo", "--out", dir.file("a"), "--purchases", "300", "--seed", "5"])
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(first.stdout.contains("reports: \(dir.file("a"))/discrepancies.csv"))
        #expect(
            first.stdout.contains("\(dir.file("a"))/month_close.csv, \(dir.file("a"))/financial_reconciliation.csv"))
        #expect(first.stdout.contains("85012345_1026_EU.txt") && first.stdout.contains("financial_report.csv"))
        let discrepancies = try dir.read("a/discrepancies.csv")
        let codes = Set(
            discrepancies.split(separator: "\r\n").dropFirst().compactMap {
                $0.split(separator: ",").first.map(String.init)
            })
        #expect(
            codes == Set(FindingCode.allCases.map(\.rawValue)),
            "missing: \(Set(FindingCode.allCases.map(\.rawValue)).subtracting(codes))")
        let second = try runIAPRecon(["demo", "--out", dir.file("b"), "--purchases", "300", "--seed", "5"])
        #expect(second.exitCode == 0)
        for name in [
            "discrepancies.csv", "revenue_daily.csv", "rejected.csv", "month_close.csv", "financial_reconciliation.csv",
        ] {
            // rejected.csv names the input file, which lives in each run's own folder.
            let a = try dir.read("a/" + name).replacingOccurrences(of: dir.file("a"), with: "")
            let b = try dir.read("b/" + name).replacingOccurrences(of: dir.file("b"), with: "")
            #expect(a == b, "\(name)")
        }
        // The support view answers the "I paid and got nothing" customer.
        let lookup = try runIAPRecon(["lookup", "--db", dir.file("a/demo.sqlite"), "--user", "user-paid-nothing-1"])
        #expect(lookup.exitCode == 0)
        #expect(
            lookup.stdout.hasPrefix(
                "user user-paid-nothing-1: charged for 1 purchase, delivered 0 of 1; NOT DELIVERED:"))
        #expect(lookup.stdout.contains("MISSING_RECORD (critical)"))
        // What the run learned is dated at its as-of (as the reports date it), never at the wall clock.
        #expect(
            lookup.stdout.contains("\n2026-11-20T12:00:00Z  verification  verifyReceipt status 0"), "\(lookup.stdout)")
        #expect(
            lookup.stdout.contains("\nstore: as of 2026-11-20T12:00:00Z, its latest run (report);"), "\(lookup.stdout)")
    }
}
