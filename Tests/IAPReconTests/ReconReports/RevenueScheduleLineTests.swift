import Foundation
import Testing

@testable import ReconFindings
@testable import ReconModel
@testable import ReconReports

/// A line of `revenue_schedule.csv` written byte by byte is the line its cells make (``CSVTable``): plain ids as
/// they are, texts that need quotes or the formula guard as cells, each currency's decimals, negative and large
/// amounts, instants with and without milliseconds or outside the years 0...9999, no end or an end not after the
/// start.
@Suite struct RevenueScheduleLineTests {
    static let texts = [
        "2000000100000001", "", "u 1", " lead", "trail ", "a,b", "say \"hi\"", "=SUM(A1)", "+1", "-1", "@x", "\tx",
        "line\nbreak", "crlf\r\n", "ümlaut", "€", "tab\tinside", "coins_100", "a\u{0301} ", " \u{0301}x", "'quoted",
    ]

    static func sale(_ index: Int, currency: String, amount: Int64, start: Int64, end: Int64?) -> RecognitionSale {
        let text = texts[index % texts.count]
        return RecognitionSale(
            transactionID: text, originalTransactionID: texts[(index + 3) % texts.count],
            userID: texts[(index + 7) % texts.count], productID: texts[(index + 11) % texts.count],
            amount: Money(milliunits: amount, currency: currency), start: start, end: end,
            periodSource: [.apple, .catalog, .pointInTime, .none][index % 4],
            refunds: index % 5 == 0
                ? [RecognitionSale.Refund(at: start + 1_000, kind: .prorated(thousandthsOfPercent: 33_333))] : [])
    }

    @Test func theBytesAreTheCells() {
        let currencies = ["USD", "JPY", "KWD", "EUR", "XXX", "usd", "BHD"]
        let amounts: [Int64] = [0, 1, 5, 990, 1_234_567, -4_990, 999_999_999_999, Int64.max / 2, -1]
        let starts: [Int64] = [1_795_176_000_000, 1_795_176_000_123, 0, -1, 253_402_300_800_000, -62_167_219_200_001]
        var line = RevenueScheduleLine()
        var index = 0
        for currency in currencies {
            for amount in amounts {
                for start in starts {
                    for end in [nil, start, start - 1, start + 2_592_000_000, start + 1] as [Int64?] {
                        let sale = Self.sale(index, currency: currency, amount: amount, start: start, end: end)
                        index += 1
                        let asOf = start + 1_000_000_000
                        var cells: [UInt8] = []
                        CSVTable.append(CSVReports.scheduleRow(.init(sale, asOf: asOf)), to: &cells)
                        var bytes: [UInt8] = []
                        line.append(sale, totals: RecognitionSchedule.totals(sale, by: asOf), to: &bytes)
                        #expect(bytes == cells, "\(String(decoding: cells, as: UTF8.self))")
                    }
                }
            }
        }
    }

    @Test(arguments: texts) func aTextIsWrittenAsItsCell(_ text: String) {
        var cell: [UInt8] = []
        CSVTable.append([.text(text)], to: &cell)
        var bytes: [UInt8] = []
        RevenueScheduleLine.appendText(text, to: &bytes)
        #expect(bytes + [0x0D, 0x0A] == cell)
    }
}
