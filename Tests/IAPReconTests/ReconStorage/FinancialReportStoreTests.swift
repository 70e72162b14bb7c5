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

/// Financial Reports and payment summaries in the store: a statement imported again replaces the earlier one, a
/// refused one changes nothing, and regions paid in one currency never replace each other (CONTRACT §1.9).
@Suite struct FinancialReportStoreTests {
    let dir = TemporaryDirectory("financial-store")

    func store() throws -> ReconStore {
        try ReconStore(path: dir.file("s.sqlite"), clock: ManualClock(millis: 1_795_176_000_000))
    }

    static func apple(_ name: String) throws -> String { try fixturePath("apple-finance/" + name) }

    @Test func importingAReportAgainReplacesItAndARefusedOneChangesNothing() throws {
        let store = try store()
        let reports = try ["45545510_0914_EU.txt", "45545510_0914_CH.txt", "45545510_0914_JP.txt"].map(Self.apple)
        let first = try Importer().run(ImportRequest(financialReports: reports), into: store)
        #expect(
            first.map(\.line).first
                == "financial-report \(reports[0]): read 6, accepted 6 (6 not in-app purchases, not compared), rejected 0"
        )
        #expect(try store.appleReports.financialReportRows().count == 12)
        _ = try Importer().run(ImportRequest(financialReports: [reports[0]]), into: store)
        #expect(try store.appleReports.financialReportRows().count == 12)

        let text = try String(contentsOfFile: reports[0], encoding: .utf8)
        let cut = try dir.write(
            "45545510_0914_EU.txt", text.replacingOccurrences(of: "Total_Rows\t6", with: "Total_Rows\t7"))
        #expect(throws: ImportFileError.self) {
            try Importer().run(ImportRequest(financialReports: [cut]), into: store)
        }
        #expect(try store.appleReports.financialReportRows().count == 12)
    }

    /// Americas (`US`) and Rest of World (`WW`) are both paid in USD: one's report never replaces the other's, while
    /// an all-regions file replaces every region of its currencies.
    @Test func regionsOfOneCurrencyKeepTheirOwnReports() throws {
        let store = try store()
        let text = try String(contentsOfFile: try Self.apple("45545510_0914_EU.txt"), encoding: .utf8)
        let usd = text.replacingOccurrences(of: "\tEUR", with: "\tUSD")
        let americas = try dir.write("45545510_0914_US.txt", usd)
        let world = try dir.write("45545510_0914_WW.txt", usd)
        _ = try Importer().run(ImportRequest(financialReports: [americas, world]), into: store)
        #expect(try store.appleReports.financialReportRows().count == 12)
        let all = try dir.write("45545510_0914_ZZ.txt", usd)
        _ = try Importer().run(ImportRequest(financialReports: [all]), into: store)
        #expect(try store.appleReports.financialReportRows().count == 6)
    }

    @Test func aPaymentSummaryImportedAgainReplacesItsMonth() throws {
        let store = try store()
        let path = try Self.apple("financial_report.csv")
        _ = try Importer().run(ImportRequest(payments: [path, path]), into: store)
        let summaries = try store.appleReports.paymentSummaries()
        #expect(summaries.count == 1)
        #expect(summaries.first?.regions.map(\.label) == ["Switzerland (CHF)", "Euro-Zone (EUR)", "Japan (JPY)"])
        #expect(summaries.first?.regions.last?.exchangeRate == "0.00817")
        #expect(summaries.first?.totalPaid == Money(milliunits: 234_580, currency: "EUR"))
    }
}
