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

/// The workbook as finance reads it, with an Apple sales report in the store: the `Apple Sales`
/// sheet, one chart per currency on a date scale, amounts that show their currency once, and a
/// print layout on every sheet.
@Suite struct AppleSalesWorkbookTests {
    let dir = TemporaryDirectory("apple-sales-workbook")
    let logger = Logger.quiet

    /// Apple's report of 2026-11-18 (Los Angeles): the small ledger's coins_100 and premium
    /// purchases of that day, and a gold purchase the ledger does not have that day.
    static let report = [
        SalesReportImportTests.header,
        SalesReportImportTests.row("coins_100", "IA1", units: "3", price: "0.99", begin: "11/18/2026"),
        SalesReportImportTests.row(
            "premium", "IA1", units: "1", price: "1200", currency: "JPY", country: "JP", begin: "11/18/2026"),
        SalesReportImportTests.row(
            "gold", "IA1", units: "1", price: "3.500", currency: "KWD", country: "KW", begin: "11/18/2026"),
        "",
    ].joined(separator: "\n")

    func writeReports(asOf: Int64 = 1_795_176_000_000) async throws -> (CommandOutput, XLSXArchive) {
        var config = ReconConfig.forTesting(databasePath: dir.file("store.sqlite"), outputDirectory: dir.file("out"))
        config.asOf = asOf
        _ = try await config.dependencies(at: asOf).importFiles(
            ImportRequest(
                transactions: [try fixturePath("ledger/small-transactions.csv")],
                products: [try fixturePath("ledger/small-products.csv")],
                salesReports: [try dir.write("S_D_85012345_20261118.txt", Self.report)]))
        let outcome = try await config.dependencies(at: asOf).report()
        return (outcome, XLSXArchive(path: dir.file("out/reconciliation.xlsx")))
    }

    /// `--as-of` cuts the comparison off too (CONTRACT §5): at 20:00 on the report's own day in Los
    /// Angeles the day has not ended, so nothing is compared: no sheet, no finding, and
    /// `sales_reconciliation.csv` (written whenever a sales report is in the store) has no rows.
    @Test func aReportDayNotEndedAtAsOfIsNotCompared() async throws {
        let (_, archive) = try await writeReports(asOf: try #require(Timestamp.parse("2026-11-18T20:00:00-08:00")))
        #expect(try dir.read("out/sales_reconciliation.csv") == Self.headerOnly)
        let names = try archive.entry("xl/workbook.xml").matches(of: #/<sheet name="([^"]+)"/#).map {
            String($0.output.1)
        }
        #expect(!names.contains("Apple Sales"))
        #expect(try !dir.read("out/discrepancies.csv").contains("SALES_REPORT_MISMATCH"))
    }

    static let headerOnly =
        "date,product_id,storefront,currency,apple_units,ledger_units,apple_amount,ledger_amount,status\r\n"

    /// A later report into the same folder that compares no day never leaves the earlier run's
    /// reconciliation there as if it were current (CONTRACT §5: the file follows the store).
    @Test func aLaterReportComparingNoDayReplacesTheEarlierReconciliation() async throws {
        _ = try await writeReports()
        #expect(try dir.read("out/sales_reconciliation.csv").contains("mismatch"))
        // The same store reported as of a moment before the report's day ended: nothing compared.
        let (_, archive) = try await writeReports(asOf: try #require(Timestamp.parse("2026-11-18T20:00:00-08:00")))
        #expect(try dir.read("out/sales_reconciliation.csv") == Self.headerOnly)
        #expect(try !archive.entry("xl/workbook.xml").contains("Apple Sales"))
    }

    /// A store with no sales report writes no `sales_reconciliation.csv`, and one left in the
    /// folder by a run over another store is removed.
    @Test func aStoreWithoutSalesReportsRemovesAStaleReconciliation() async throws {
        try FileManager.default.createDirectory(atPath: dir.file("out"), withIntermediateDirectories: true)
        let stale = Self.headerOnly + "2026-11-18,gold,KWT,KWD,1,0,3.500,0.000,mismatch\r\n"
        _ = try dir.write("out/sales_reconciliation.csv", stale)
        let asOf: Int64 = 1_795_176_000_000
        var config = ReconConfig.forTesting(databasePath: dir.file("plain.sqlite"), outputDirectory: dir.file("out"))
        config.asOf = asOf
        _ = try await config.dependencies(at: asOf).importFiles(
            ImportRequest(transactions: [try fixturePath("ledger/small-transactions.csv")]))
        let outcome = try await config.dependencies(at: asOf).report()
        #expect(outcome.exitCode == 0)
        #expect(!FileManager.default.fileExists(atPath: dir.file("out/sales_reconciliation.csv")))
        #expect(FileManager.default.fileExists(atPath: dir.file("out/revenue_daily.csv")))
    }

    @Test func salesReconciliationCSVAndSheetListEveryKeyWithItsStatus() async throws {
        let (_, archive) = try await writeReports()
        let csv = try dir.read("out/sales_reconciliation.csv")
        #expect(
            csv == """
                date,product_id,storefront,currency,apple_units,ledger_units,apple_amount,ledger_amount,status\r
                2026-11-18,coins_100,USA,USD,3,3,2.97,2.97,match\r
                2026-11-18,gold,KWT,KWD,1,0,3.500,0.000,mismatch\r
                2026-11-18,premium,JPN,JPY,1,1,1200,1200,match\r

                """)
        let names = try archive.entry("xl/workbook.xml").matches(of: #/<sheet name="([^"]+)"/#).map {
            String($0.output.1)
        }
        #expect(
            names == [
                "Summary", "Revenue", "Deferred Revenue", "Apple Sales", "Discrepancies", "Pending", "Rejected", "Run",
            ])
        let sheet = try archive.csv(sheet: 4)
        #expect(
            sheet.contains(#"46344 {yyyy-mm-dd},gold,KWT,KWD,1 {0},0 {0},"3.5 {#,##0.000}","0 {#,##0.000}",mismatch"#))
        let summary = try archive.csv(sheet: 1)
        #expect(summary.contains("Days compared (America/Los_Angeles),2026-11-18"))
        #expect(summary.contains("Of which disagree (SALES_REPORT_MISMATCH),1 {0}"))
        let discrepancies = try archive.csv(sheet: 5)
        #expect(discrepancies.contains(#"SALES_REPORT_MISMATCH,high,,,,gold,Production,"3.5 {#,##0.000}",KWD"#))
    }

    @Test func theMismatchIsAFindingWithBothFigures() async throws {
        _ = try await writeReports()
        let csv = try dir.read("out/discrepancies.csv")
        let line = try #require(csv.split(separator: "\r\n").first { $0.hasPrefix("SALES_REPORT_MISMATCH") })
        #expect(
            line == "SALES_REPORT_MISMATCH,high,,,,gold,Production,3.500,KWD,2026-11-20T12:00:00Z,"
                + "\"On 2026-11-18 (America/Los_Angeles) gold in KWT KWD: Apple's sales report shows 1 unit, 3.500 KWD; "
                + "the ledger 0 units, 0.000 KWD (no transaction)\"")
    }

    /// One chart per currency (a JPY line would flatten EUR and USD on a shared scale), each a
    /// line over a date scale: a scatter chart whose x axis is a value axis of date serials with
    /// a date format (libxlsxwriter 1.1.4 writes no `c:dateAx`), its y axis in the currency's
    /// own decimals.
    @Test func eachCurrencyHasItsOwnChartOnADateScale() async throws {
        let (_, archive) = try await writeReports()
        let charts = try archive.entryNames().filter { $0.hasPrefix("xl/charts/chart") }.sorted()
        #expect(
            charts == ["xl/charts/chart1.xml", "xl/charts/chart2.xml", "xl/charts/chart3.xml", "xl/charts/chart4.xml"])
        var titles: [String] = []
        for name in charts {
            let chart = try archive.entry(name)
            #expect(chart.contains("<c:scatterChart>"), "\(name)")
            #expect(!chart.contains("<c:lineChart>") && !chart.contains("<c:catAx>"), "\(name)")
            #expect(chart.matches(of: #/<c:ser>/#).count == 1, "\(name)")
            #expect(chart.matches(of: #/<c:valAx>/#).count == 2, "\(name)")
            #expect(chart.contains(#"<c:numFmt formatCode="yyyy-mm-dd" sourceLinked="0"/>"#), "\(name)")
            #expect(chart.contains(#"<c:min val="46344"/>"#) && chart.contains(#"<c:max val="46346"/>"#), "\(name)")
            #expect(chart.contains("<c:xVal>") && chart.contains("<c:f>Summary!$A$"), "\(name)")
            titles += chart.matches(of: #/<a:t>([^<]+)</a:t>/#).map { String($0.output.1) }
        }
        #expect(
            titles == ["EUR", "JPY", "KWD", "USD"].map { "Daily net revenue, \($0) (Production)" })
        let yen = try archive.entry("xl/charts/chart2.xml")
        #expect(yen.contains(##"<c:numFmt formatCode="#,##0" sourceLinked="0"/>"##))
        let drawing = try archive.entry("xl/drawings/drawing1.xml")
        #expect(drawing.matches(of: #/<xdr:graphicFrame/#).count == 4)
    }

    @Test func everySheetPrintsLandscapeOnePageWideWithItsHeaderRepeated() async throws {
        let (_, archive) = try await writeReports()
        for sheet in 1...8 {
            let xml = try archive.entry("xl/worksheets/sheet\(sheet).xml")
            #expect(xml.contains(#"<pageSetUpPr fitToPage="1"/>"#), "sheet \(sheet)")
            #expect(xml.contains(#"orientation="landscape""#), "sheet \(sheet)")
            #expect(xml.contains(#"fitToHeight="0""#), "sheet \(sheet)")
        }
        let workbook = try archive.entry("xl/workbook.xml")
        for name in ["Revenue", "'Apple Sales'", "Discrepancies", "Pending", "Rejected", "Run"] {
            #expect(workbook.contains("\(name)!$1:$1</definedName>"), "\(name)")
        }
    }

    /// Another app's rows are left out of the comparison and counted in the Summary and in run.json.
    ///
    /// A Summary Sales Report covers every app of the developer account
    /// (https://developer.apple.com/help/app-store-connect/reference/summary-sales-report). Which rows are this app's is decided
    /// when the reports are written, so a catalog imported after the sales report still tells.
    @Test func anotherAppsRowsAreLeftOutAndCounted() async throws {
        let asOf: Int64 = 1_795_176_000_000
        var config = ReconConfig.forTesting(databasePath: dir.file("store.sqlite"), outputDirectory: dir.file("out"))
        config.asOf = asOf
        let report = [
            SalesReportImportTests.header,
            SalesReportImportTests.row("coins_100", "IA1", units: "3", price: "0.99", begin: "11/18/2026"),
            SalesReportImportTests.row(
                "premium", "IA1", units: "1", price: "1200", currency: "JPY", country: "JP", begin: "11/18/2026"),
            SalesReportImportTests.row(
                "gold", "IA1", units: "1", price: "3.500", currency: "KWD", country: "KW", begin: "11/18/2026"),
            SalesReportImportTests.row(
                "other.coins", "IA1", units: "5", price: "1.99", begin: "11/18/2026", parent: "com.example.other"),
            SalesReportImportTests.row(
                "other.coins", "IA1", units: "2", price: "2.29", currency: "EUR", country: "DE", begin: "11/18/2026",
                parent: "com.example.other"),
            "",
        ].joined(separator: "\n")
        _ = try await config.dependencies(at: asOf).importFiles(
            ImportRequest(salesReports: [try dir.write("S_D_85012345_20261118.txt", report)]))
        _ = try await config.dependencies(at: asOf).importFiles(
            ImportRequest(
                transactions: [try fixturePath("ledger/small-transactions.csv")],
                products: [try fixturePath("ledger/small-products.csv")]))
        _ = try await config.dependencies(at: asOf).report()

        let csv = try dir.read("out/sales_reconciliation.csv")
        #expect(!csv.contains("other.coins"))
        #expect(csv.split(separator: "\r\n").filter { $0.hasSuffix(",mismatch") }.count == 1)
        let summary = try XLSXArchive(path: dir.file("out/reconciliation.xlsx")).csv(sheet: 1)
        #expect(summary.contains(#""Rows of other apps, not compared",2 {0}"#), "\(summary)")
        #expect(summary.contains("Their SKUs,other.coins"))
        let run = try dir.read("out/run.json")
        #expect(run.contains(#""sales_report_rows_of_other_apps" : 2"#), "\(run)")
    }

    /// "As of" is a date and time: its column is wide enough not to show `###`.
    @Test func summaryColumnsFitTheirValues() async throws {
        let (_, archive) = try await writeReports()
        let summary = try archive.entry("xl/worksheets/sheet1.xml")
        let widths = summary.matches(of: #/<col min="(\d+)" max="\d+" width="([0-9.]+)"/#).map {
            (Int($0.output.1) ?? 0, Double($0.output.2) ?? 0)
        }
        let b = try #require(widths.first { $0.0 == 2 })
        #expect(b.1 >= 21)
        #expect(
            try archive.numberFormat(style: try #require(try archive.cells(sheet: 1)["B2"]).style)
                == "yyyy-mm-dd hh:mm:ss")
    }
}
