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

/// Apple's payment summary (CONTRACT §1.9), read from the one App Store Connect offered beside the
/// September 2014 Financial Reports (`Fixtures/apple-finance/financial_report.csv`).
@Suite struct PaymentSummaryParserTests {
    let dir = TemporaryDirectory("payments")

    static func apple() throws -> String { try fixturePath("apple-finance/financial_report.csv") }

    func edited(_ edit: (String) -> String) throws -> String {
        try dir.write("financial_report.csv", edit(try String(contentsOfFile: try Self.apple(), encoding: .utf8)))
    }

    @Test func readsApplesSummaryWithItsTitleRegionsAndFooter() throws {
        let summary = try PaymentSummaryParser.parse(try Self.apple())
        // The title's month: "iTunes Connect - Payments and Financial Reports\t(September, 2014)".
        #expect(summary.month == FiscalMonth(year: 2014, month: 9))
        #expect(summary.regions.map(\.label) == ["Switzerland (CHF)", "Euro-Zone (EUR)", "Japan (JPY)"])
        let japan = try #require(summary.regions.last)
        #expect(japan.earned == Money(milliunits: 179_000, currency: "JPY"))
        #expect(japan.withholdingTax == Money(milliunits: -37_000, currency: "JPY"))
        #expect(japan.totalOwed == Money(milliunits: 142_000, currency: "JPY"))
        // The exchange rate keeps every digit Apple printed.
        #expect(japan.exchangeRate == "0.00817")
        #expect(japan.proceeds == Money(milliunits: 1_160, currency: "EUR"))
        #expect(summary.regions[1].exchangeRate == "1.00000")
        #expect(summary.totalPaid == Money(milliunits: 234_580, currency: "EUR"))
    }

    @Test func aSummaryCutOffBeforeItsFooterIsRefused() throws {
        let path = try edited { text in text.components(separatedBy: "\n").prefix(6).joined(separator: "\n") + "\n" }
        #expect {
            try PaymentSummaryParser.parse(path)
        } throws: { error in
            let text = (error as? ImportFileError)?.errorDescription ?? ""
            return text.contains(path) && text.contains("no footer with the total paid")
                && text.contains("nothing of this payment summary is stored")
        }
    }

    @Test func regionsThatDoNotAddUpToTheTotalPaidAreRefused() throws {
        let path = try edited { $0.replacingOccurrences(of: "\"26.53\"", with: "\"26.54\"") }
        #expect {
            try PaymentSummaryParser.parse(path)
        } throws: { error in
            (error as? ImportFileError)?.errorDescription?.contains(
                "the footer on line 8 states 234.58 EUR paid, the regions' Proceeds add up to 234.59") == true
        }
    }

    /// Later summaries name the first column `Country or Region (Currency)`, quote the label and end lines with CRLF.
    @Test func readsTheLaterHeaderQuotedLabelsAndCRLF() throws {
        let path = try edited { text in
            text.replacingOccurrences(of: "Region (Currency)", with: "Country or Region (Currency)")
                .replacingOccurrences(of: "Euro-Zone (EUR),", with: "\"Euro-Zone (EUR)\",")
                .replacingOccurrences(of: "\n", with: "\r\n")
        }
        let summary = try PaymentSummaryParser.parse(path)
        #expect(summary.regions.map(\.currency) == ["CHF", "EUR", "JPY"])
        #expect(summary.totalPaid == Money(milliunits: 234_580, currency: "EUR"))
    }

    @Test func aTitleWithoutAMonthIsRefused() throws {
        let path = try edited { $0.replacingOccurrences(of: "(September, 2014)", with: "") }
        #expect(throws: ImportFileError.self) { try PaymentSummaryParser.parse(path) }
    }
}
