import Foundation
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

extension XLSXWriterTests {
    @Test(arguments: [
        ("USD", #"#,##0.00 "USD""#), ("JPY", #"#,##0 "JPY""#), ("KWD", #"#,##0.000 "KWD""#),
        ("eur", #"#,##0.00 "EUR""#), ("XX\"Q", #"#,##0.00 "XXQ""#),
    ])
    func moneyFormatUsesTheCurrencyDecimalsAndCode(currency: String, format: String) {
        #expect(XLSXWriter.moneyFormat(currency) == format)
    }

    @Test func renderedTextAndNames() {
        #expect(
            XLSXWriter.renderedText(.money(Money(milliunits: -1_234_567_500, currency: "USD"))) == "-1,234,567.50 USD")
        #expect(XLSXWriter.renderedText(.money(Money(milliunits: 1_200_000, currency: "JPY"))) == "1,200 JPY")
        #expect(XLSXWriter.renderedText(.percent(ppm: 700_000)) == "70%")
        #expect(XLSXWriter.renderedText(.percent(ppm: 123_456)) == "12.3%")
        #expect(XLSXWriter.renderedText(.percent(ppm: -5_000)) == "-0.5%")
        let percents = XLSXSheet(
            name: "P",
            rows: [
                XLSXRow([.percent(ppm: 10_000), .percent(ppm: 20_000)]),
                XLSXRow([.percent(ppm: 10_000), .percent(ppm: 20_001), .text("x")]),
            ])
        #expect(XLSXWriter.percentColumnsWithDecimals(of: percents) == [1])
        #expect(XLSXWriter.displayWidth("ab\nabcd") == 4)
        #expect(XLSXWriter.displayWidth("日本") == 4)
        #expect(XLSXWorkbook.cellName(row: 0, column: 0) == "A1")
        #expect(XLSXWorkbook.cellName(row: 9, column: 27) == "AB10")
        #expect(XLSXWorkbook.columnName(16_383) == "XFD")
        #expect(XLSXError.oneLine("a\nb\rc") == "a b c")
    }

    /// A money cell's number is the one its text parses to: rounded half away from zero to the currency's decimals.
    @Test(arguments: [0, 2, 3])
    func aMoneyCellHoldsTheNumberItsTextParsesTo(decimals: Int) {
        var values: [Int64] = [
            0, 1, -1, 4, 5, -5, 994, 995, -995, 35_990, 1_234_567_500, -1_234_567_505, 9_007_199_254_740_991,
            9_007_199_254_740_993_000, .max, .min, .max - 499, .min + 500,
        ]
        var generator = SplitMix64(seed: 53)
        for _ in 0..<20_000 {
            values.append(Int64.random(in: -10_000_000_000_000...10_000_000_000_000, using: &generator))
        }
        for _ in 0..<2_000 { values.append(Int64.random(in: .min ... .max, using: &generator)) }
        for milliunits in values {
            let parsed = Double(Money.format(milliunits: milliunits, decimals: decimals))
            #expect(
                XLSXWriter.shownValue(milliunits, decimals: decimals).bitPattern == parsed?.bitPattern, "\(milliunits)")
        }
    }
}
