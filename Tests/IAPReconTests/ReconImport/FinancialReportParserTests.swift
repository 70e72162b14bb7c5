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

/// Apple Financial Reports as App Store Connect delivers them (CONTRACT §1.9), read from Apple's own
/// files (`Fixtures/apple-finance`).
///
/// Fields: https://developer.apple.com/help/app-store-connect/reference/financial-report-fields
@Suite struct FinancialReportParserTests {
    let dir = TemporaryDirectory("financial-report")

    static func apple(_ name: String) throws -> String { try fixturePath("apple-finance/" + name) }

    /// Apple's file with its lines replaced by `edit`, written to the temporary folder under `name`.
    func edited(_ edit: ([String]) -> [String]) throws -> String {
        let name = "45545510_0914_EU.txt"
        let text = try String(contentsOfFile: try Self.apple(name), encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return try dir.write(name, edit(lines).joined(separator: "\n") + "\n")
    }

    @Test func readsApplesEuroZoneReportWithItsReturnAndTrailer() throws {
        let report = try FinancialReportParser.parse(try Self.apple("45545510_0914_EU.txt"))
        #expect(report.region == "EU")
        #expect(report.period.text == "2014-08-31 to 2014-09-27")
        #expect(report.period.month == FiscalMonth(year: 2014, month: 9))
        #expect(report.rows.count == 6)
        let back = try #require(report.rows.first)
        // A return: negative quantity and price, positive partner share, negative extended share.
        #expect(back.isReturn && back.quantity == -1)
        #expect(back.partnerShare == Money(milliunits: 12_170, currency: "EUR"))
        #expect(back.extendedPartnerShare == Money(milliunits: -12_170, currency: "EUR"))
        #expect(back.customerAmount == Money(milliunits: -19_990, currency: "EUR"))
        #expect(back.countryCode == "DE" && back.productID == "Example App 5" && back.line == 2)
        // Paid apps, not in-app purchases: part of what Apple owes, never compared with the ledger.
        #expect(report.rows.allSatisfy { !$0.isInAppPurchase })
        let total = report.rows.reduce(Int64(0)) { $0 + $1.extendedPartnerShare.milliunits }
        #expect(total == 206_890)
    }

    @Test func readsTheSwissAndJapaneseReportsOfTheSameMonth() throws {
        let swiss = try FinancialReportParser.parse(try Self.apple("45545510_0914_CH.txt"))
        #expect(swiss.region == "CH" && swiss.rows.count == 4)
        #expect(swiss.rows.map(\.regionCurrency) == ["CHF", "CHF", "CHF", "CHF"])
        // Total_Amount 179 without decimals, rows at 119.00 and 60.00 JPY.
        let japan = try FinancialReportParser.parse(try Self.apple("45545510_0914_JP.txt"))
        #expect(
            japan.rows.map(\.partnerShare) == [
                Money(milliunits: 119_000, currency: "JPY"), Money(milliunits: 60_000, currency: "JPY"),
            ])
    }

    @Test func readsTheSameReportGzipped() throws {
        let plain = try Self.apple("45545510_0914_EU.txt")
        let gz = dir.file("45545510_0914_EU.txt.gz")
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gzip.arguments = ["-c", "gzip -c '\(plain)' > '\(gz)'"]
        try gzip.run()
        gzip.waitUntilExit()
        let report = try FinancialReportParser.parse(gz)
        #expect(report.rows == (try FinancialReportParser.parse(plain)).rows)
        #expect(report.region == "EU")
    }

    @Test func aDownloadCutOffBeforeItsTrailerIsRefusedWhole() throws {
        let path = try edited { Array($0.prefix(5)) }
        #expect {
            try FinancialReportParser.parse(path)
        } throws: { error in
            let text = (error as? ImportFileError)?.errorDescription ?? ""
            return text.contains(path) && text.contains("no Total_Rows") && text.contains("a truncated download")
                && text.contains("nothing of this Financial Report is stored")
        }
    }

    /// Ways a download goes wrong after Apple wrote it: each leaves rows that do not add up to the trailer.
    enum Damage: String, CaseIterable, Sendable {
        case rowLost = "a row lost"
        case amountAltered = "an amount altered"
        case unitsAltered = "units altered"

        func apply(_ lines: [String]) -> [String] {
            switch self {
            case .rowLost: return lines.enumerated().filter { $0.offset != 3 }.map(\.element)
            case .amountAltered: return lines.map { $0.replacingOccurrences(of: "\t170.38\t", with: "\t170.39\t") }
            case .unitsAltered: return lines.map { $0 == "Total_Units\t20" ? "Total_Units\t25" : $0 }
            }
        }

        var message: String {
            switch self {
            case .rowLost: return "Total_Rows 6, the rows add up to 5"
            case .amountAltered: return "Total_Amount 206.89, the rows add up to 206.90"
            case .unitsAltered: return "Total_Units 25"
            }
        }
    }

    @Test(arguments: Damage.allCases)
    func aReportThatDoesNotAddUpToItsTrailerIsRefused(_ damage: Damage) throws {
        let path = try edited { damage.apply($0) }
        #expect {
            try FinancialReportParser.parse(path)
        } throws: { error in
            (error as? ImportFileError)?.errorDescription?.contains(damage.message) == true
        }
    }

    @Test func aMalformedRowRefusesTheReportNamingItsLine() throws {
        let path = try edited { lines in
            lines.map { $0.replacingOccurrences(of: "\t14\t12.17\t", with: "\tfourteen\t12.17\t") }
        }
        #expect {
            try FinancialReportParser.parse(path)
        } throws: { error in
            (error as? ImportFileError)?.errorDescription?.contains("line 6: bad Quantity 'fourteen'") == true
        }
    }

    /// An all-regions file (`ZZ`): rows in several currencies, one trailer without `Total_Amount`, then Apple's
    /// totals per country, which are not rows.
    @Test func readsAnAllRegionsFileWithItsSummaryPerCountry() throws {
        let header = try String(contentsOfFile: try Self.apple("45545510_0914_EU.txt"), encoding: .utf8)
            .components(separatedBy: "\n")[0]
        func row(
            _ product: String, _ qty: Int, _ share: String, _ ext: String, _ cur: String, _ country: String,
            _ price: String
        ) -> String {
            [
                "08/31/2014", "09/27/2014", "", "", product, String(qty), share, ext, cur, qty < 0 ? "R" : "S", "1",
                "Developer",
                product, "", "", "IA1", "", country, "", "", price, cur,
            ].joined(separator: "\t")
        }
        let text = [
            header, row("coins", 3, "2.91", "8.73", "EUR", "FR", "4.99"),
            row("coins", 2, "0.69", "1.38", "USD", "US", "0.99"),
            "Total_Rows\t2", "Total_Units\t5", "",
            "Country Of Sale\tPartner Share Currency\tQuantity\tExtended Partner Share",
            "FR\tEUR\t3\t8.73", "US\tUSD\t2\t1.38",
        ].joined(separator: "\n")
        let report = try FinancialReportParser.parse(try dir.write("45545510_0914_ZZ.txt", text + "\n"))
        #expect(report.region == "ZZ")
        #expect(report.rows.map(\.regionCurrency) == ["EUR", "USD"])
        #expect(report.rows.allSatisfy { $0.isInAppPurchase })
    }

    @Test func aFileThatIsNotAFinancialReportSaysWhichColumnsItLacks() throws {
        let path = try dir.write("ledger.txt", "record_id\tuser_id\n1\t2\n")
        #expect {
            try FinancialReportParser.parse(path)
        } throws: { error in
            (error as? ImportFileError)?.errorDescription?.contains(
                "not an Apple Financial Report (header lacks 'Start Date'") == true
        }
    }
}
