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

/// `reconciliation.xlsx` from the small ledger, read back as the zip it is.
@Suite struct ReconciliationWorkbookTests {
    let dir = TemporaryDirectory("workbook")
    let logger = Logger.quiet

    func writeWorkbook() async throws -> XLSXArchive {
        let config = ReconConfig.forTesting(databasePath: dir.file("store.sqlite"), outputDirectory: dir.file("out"))
        _ = try await config.dependencies(at: 1_795_176_000_000).importFiles(
            ImportRequest(
                transactions: [try fixturePath("ledger/small-transactions.csv")],
                products: [try fixturePath("ledger/small-products.csv")]))
        _ = try await config.dependencies(at: 1_795_176_000_000).report()
        return XLSXArchive(path: dir.file("out/reconciliation.xlsx"))
    }

    @Test func hasTheSheetsOfTheSpecInOrder() async throws {
        let workbook = try await writeWorkbook().entry("xl/workbook.xml")
        let names = workbook.matches(of: #/<sheet name="([^"]+)"/#).map { String($0.output.1) }
        #expect(names == ["Summary", "Revenue", "Deferred Revenue", "Discrepancies", "Pending", "Rejected", "Run"])
    }

    @Test func revenueSheetHasTypedCellsFormatsFrozenHeaderAndFilter() async throws {
        let archive = try await writeWorkbook()
        if let mismatch = snapshotMismatch(try archive.csv(sheet: 2), named: "small-ledger.Revenue.xlsx.csv") {
            Issue.record(Comment(rawValue: mismatch))
        }
        let cells = try archive.cells(sheet: 2)
        // A2 is a date cell (a serial number with a date format), E5 a KWD amount.
        let a2 = try #require(cells["A2"])
        #expect(a2.type == nil)
        #expect(a2.value == "46344")
        #expect(try archive.numberFormat(style: a2.style) == "yyyy-mm-dd")
        let gold = try #require(cells["E5"])
        #expect(gold.value == "3.5")
        // The currency column beside it names the currency: the amount shows it no second time.
        #expect(try archive.numberFormat(style: gold.style) == "#,##0.000")
        let yen = try #require(cells["E3"])
        #expect(try archive.numberFormat(style: yen.style) == "#,##0")
        let sheet = try archive.entry("xl/worksheets/sheet2.xml")
        #expect(sheet.contains(#"ySplit="1""#) && sheet.contains(#"state="frozen""#))
        #expect(sheet.contains(#"<autoFilter ref="A1:K7"/>"#))
        #expect(sheet.contains("<col "))
    }

    @Test func summaryHasTotalsPerCurrencyAndAChart() async throws {
        let archive = try await writeWorkbook()
        let summary = try archive.csv(sheet: 1)
        #expect(
            summary.contains(
                #"USD,4 {0},"3.96 {#,##0.00}","0 {#,##0.00}","3.96 {#,##0.00}","2.77 {#,##0.00}""#))
        #expect(summary.contains(#"JPY,1 {0},"1200 {#,##0}""#))
        #expect(summary.contains("Counted transactions without any price,1 {0}"))
        #expect(try archive.entryNames().contains("xl/charts/chart1.xml"))
        let chart = try archive.entry("xl/charts/chart1.xml")
        #expect(chart.contains("Summary!$A$"))
    }

    @Test func rejectedSheetKeepsEveryRejection() async throws {
        let archive = try await writeWorkbook()
        let rejected = try archive.csv(sheet: 6)
        #expect(rejected.split(separator: "\n").count == 4)
        #expect(rejected.contains("unknown currency 'GBX' in 'currency'"))
    }
}
