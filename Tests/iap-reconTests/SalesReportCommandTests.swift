import Foundation
import IAPReconTestSupport
import Testing

/// `--sales-report` and `--sales-report-timezone` on the built binary.
@Suite struct SalesReportCommandTests {
    let dir = TemporaryDirectory("cli-sales")

    static let report = [
        [
            "Provider", "Provider Country", "SKU", "Developer", "Title", "Version", "Product Type Identifier", "Units",
            "Developer Proceeds", "Begin Date", "End Date", "Customer Currency", "Country Code", "Customer Price",
        ].joined(separator: "\t"),
        [
            "APPLE", "US", "coins", "Dev", "Coins", "", "IA1", "2", "0.69", "11/15/2026", "11/15/2026", "USD", "US",
            "0.99",
        ]
        .joined(separator: "\t"),
        ["APPLE", "US", "app", "Dev", "App", "1.0", "1", "9", "0", "11/15/2026", "11/15/2026", "USD", "US", "0"]
            .joined(separator: "\t"),
        "",
    ].joined(separator: "\n")

    @Test func importAndRunReadSalesReportsAndReconcileThem() throws {
        let report = try dir.write("S_D_1_20261115.txt", Self.report)
        let ledger = try dir.write(
            "tx.csv",
            CommandLineTests.header
                + "\nr1,u1,coins,t1,,2026-11-15T23:30:00-08:00,1,Production,0.99,USD,USA,verified,,,\n")
        let imported = try runIAPRecon(["import", "--db", dir.file("s.sqlite"), "--sales-report", report])
        #expect(imported.exitCode == 0)
        #expect(
            imported.stdout.contains(
                "sales-report \(report): read 2, accepted 2 (1 not in-app purchases, not compared), rejected 0"))
        let run = try runIAPRecon([
            "run", "--db", dir.file("s.sqlite"), "--out", dir.file("out"), "--transactions", ledger,
            "--sales-report-timezone", "America/Los_Angeles", "--as-of", "2026-11-20T00:00:00Z", "--fail-on", "high",
        ])
        // Apple sold 2 that Los Angeles day; the ledger 1 (at 23:30 there, already the 16th in UTC).
        #expect(run.exitCode == 3)
        let csv = try dir.read("out/sales_reconciliation.csv")
        #expect(csv.contains("2026-11-15,coins,USA,USD,2,1,1.98,0.99,mismatch"))
    }

    /// `--sales-report-timezone` is a shared `[config]` option: `report` takes it as `run` does
    /// (and from `--config`), and it decides the day the ledger's purchase is compared on.
    @Test func reportTakesTheSalesReportTimeZoneFromAFlagOrTheConfigFile() throws {
        let report = try dir.write("S_D_1_20261115.txt", Self.report)
        let ledger = try dir.write(
            "tx.csv",
            CommandLineTests.header
                + "\nr1,u1,coins,t1,,2026-11-15T23:30:00-08:00,1,Production,0.99,USD,USA,verified,,,\n")
        let db = dir.file("s.sqlite")
        let imported = try runIAPRecon(["import", "--db", db, "--sales-report", report, "--transactions", ledger])
        #expect(imported.exitCode == 0)
        let asOf = ["--as-of", "2026-11-20T00:00:00Z"]
        let inUTC = try runIAPRecon(
            ["report", "--db", db, "--out", dir.file("utc"), "--sales-report-timezone", "UTC"] + asOf)
        #expect(inUTC.exitCode == 0, "\(inUTC.stderr)")
        // In UTC the purchase is on the 16th: Apple's two units of the 15th have no ledger side.
        let utc = try dir.read("utc/sales_reconciliation.csv")
        #expect(utc.contains("2026-11-15,coins,USA,USD,2,0,1.98,0.00,mismatch"))

        let config = try dir.write("c.json", #"{"sales-report-timezone": "America/Los_Angeles"}"#)
        let inLA = try runIAPRecon(["report", "--db", db, "--out", dir.file("la"), "--config", config] + asOf)
        #expect(inLA.exitCode == 0, "\(inLA.stderr)")
        #expect(try dir.read("la/sales_reconciliation.csv").contains("2026-11-15,coins,USA,USD,2,1,1.98,0.99,mismatch"))

        let badFlag = try runIAPRecon(
            ["report", "--db", db, "--out", dir.file("x"), "--sales-report-timezone", "Mars/Olympus"])
        #expect(badFlag.exitCode == 64)
        let badFile = try dir.write("bad.json", #"{"sales-report-timezone": "Mars/Olympus"}"#)
        let badConfig = try runIAPRecon(["report", "--db", db, "--out", dir.file("x"), "--config", badFile])
        #expect(badConfig.exitCode == 1)
        #expect(badConfig.stderr.contains("sales-report-timezone 'Mars/Olympus'"), "\(badConfig.stderr)")
    }

    @Test func anUnknownSalesReportTimeZoneIsAUsageError() throws {
        let report = try dir.write("r.txt", Self.report)
        let result = try runIAPRecon([
            "import", "--db", dir.file("s.sqlite"), "--sales-report", report, "--sales-report-timezone", "Mars/Olympus",
        ])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("--sales-report-timezone 'Mars/Olympus' is not an IANA time zone"))
    }
}
