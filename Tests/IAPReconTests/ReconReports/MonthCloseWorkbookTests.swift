import Foundation
import IAPReconTestSupport
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

/// The `Month Close` sheet as a controller reads it (CONTRACT §5): per fiscal month a block with one column per
/// region currency, ledger → Apple → owed → paid, then every product and country compared.
@Suite struct MonthCloseWorkbookTests {
    let dir = TemporaryDirectory("month-close-workbook")

    func writeWorkbook() async throws -> XLSXArchive {
        let asOf = try #require(Timestamp.parse(MonthCloseFixture.asOf))
        var config = ReconConfig.forTesting(databasePath: dir.file("store.sqlite"), outputDirectory: dir.file("out"))
        config.asOf = asOf
        config.timeZone = "America/Los_Angeles"
        let files = try MonthCloseFixture.write(into: dir)
        _ = try await config.dependencies(at: asOf).importFiles(
            ImportRequest(
                transactions: [files.ledger], products: [files.products],
                financialReports: [files.euroZone, files.unitedKingdom], payments: [files.payments]))
        _ = try await config.dependencies(at: asOf).report()
        return XLSXArchive(path: dir.file("out/reconciliation.xlsx"))
    }

    @Test func theSheetReadsFromTheLedgerToTheBank() async throws {
        let archive = try await writeWorkbook()
        let names = try archive.entry("xl/workbook.xml").matches(of: #/<sheet name="([^"]+)"/#).map {
            String($0.output.1)
        }
        #expect(
            names == [
                "Summary", "Revenue", "Deferred Revenue", "Month Close", "Discrepancies", "Pending", "Rejected", "Run",
            ])
        let sheet = try archive.csv(sheet: 4)
        let lines = sheet.components(separatedBy: "\n")
        #expect(lines.contains("Fiscal October 2026 (2026-09-27 to 2026-10-31)"), "\(sheet)")
        #expect(lines.contains("Region currency,EUR,GBP,JPY"), "\(sheet)")
        #expect(
            lines.contains { $0.hasPrefix("Ledger: in-app units (sales less refunds),5 {0},2 {0},0 {0}") }, "\(sheet)")
        #expect(lines.contains { $0.hasPrefix("Exchange rate,1.00000,1.15000,0.00620") }, "\(sheet)")
        #expect(
            lines.contains(
                #"Paid to the bank,"17.47 {#,##0.00 ""EUR""}","1.06 {#,##0.00 ""EUR""}","1.49 {#,##0.00 ""EUR""}""#),
            "\(sheet)")
        #expect(lines.contains("Status,mismatch,match,mismatch"), "\(sheet)")
        #expect(
            lines.contains {
                $0.hasPrefix("coins,DE,EUR,1 {0},2 {0}")
                    && $0.hasSuffix(",mismatch,46292 {yyyy-mm-dd},46326 {yyyy-mm-dd}")
            }, "\(sheet)")
    }

    /// The Summary says how much of the proceeds Apple stated and how much is only estimated.
    @Test func theSummaryShowsProceedsBySource() async throws {
        let summary = try await writeWorkbook().csv(sheet: 1)
        #expect(summary.contains(#"EUR,Apple Financial Report,"14.61 {#,##0.00}""#), "\(summary)")
        #expect(summary.contains(#"EUR,estimate (price × rate),"6.4 {#,##0.00}""#), "\(summary)")
        #expect(summary.contains(#"GBP,Apple Financial Report,"0.92 {#,##0.00}""#), "\(summary)")
    }
}
