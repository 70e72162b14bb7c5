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

@Suite struct XLSXWriterTests {
    /// 2025-01-02T03:04:05Z in milliseconds.
    static let createdAt: Int64 = 1_735_787_045_000

    static func usd(_ milli: Int64) -> XLSXCell { .money(Money(milliunits: milli, currency: "USD")) }

    /// Three sheets: a revenue table (title, header, typed cells, total), text that looks like
    /// formulas, and chart data with two charts.
    static let document = XLSXDocument(sheets: [
        XLSXSheet(
            name: "Revenue",
            rows: [
                XLSXRow([.text("Revenue report")], style: .title),
                XLSXRow(
                    [
                        .text("Date"), .text("Product"), .text("Units"), .text("Amount"), .text("Share"),
                        .text("Booked at"),
                    ],
                    style: .header),
                XLSXRow([
                    .date(XLSXDateTime(year: 2025, month: 1, day: 1)), .text("Pro Monthly"), .integer(3),
                    usd(9_990), .percent(ppm: 700_000),
                    .dateTime(XLSXDateTime(year: 2025, month: 1, day: 1, hour: 13, minute: 45, second: 30)),
                ]),
                XLSXRow([
                    .date(XLSXDateTime(year: 2025, month: 1, day: 2)), .text("Pro Yearly"), .integer(1),
                    .money(Money(milliunits: 1_200_000, currency: "JPY")), .percent(ppm: 123_456), .empty,
                ]),
                XLSXRow([
                    .date(XLSXDateTime(year: 2025, month: 2, day: 28)), .text("Coins"), .integer(-2),
                    .money(Money(milliunits: 1_250, currency: "KWD")), .percent(ppm: 0),
                ]),
                XLSXRow([
                    .date(XLSXDateTime(year: 2024, month: 2, day: 29)), .text("Refund"), .integer(0), usd(-4_990),
                ]),
                XLSXRow([.text("Total"), .empty, .integer(2), usd(5_000)], style: .total),
            ],
            columnWidths: [nil, 30],
            headerRow: 1),
        XLSXSheet(
            name: "Notes & =Formulas",
            rows: [
                XLSXRow([.text("=SUM(A1:A3)"), .text("=1+1"), .text("+cmd|' /C calc'!A0")]),
                XLSXRow([.text("a\u{0}b"), .integer(12_345_678_901_234_567), .integer(999_999_999_999_999)]),
                XLSXRow([.text(String(repeating: "x", count: 200)), .text("short"), .text("日本語のテキストです")]),
            ]),
        XLSXSheet(
            name: "Daily Revenue",
            rows: [
                XLSXRow([.text("Day"), .text("USD")], style: .header),
                XLSXRow([.date(XLSXDateTime(year: 2025, month: 1, day: 1)), usd(9_990)]),
                XLSXRow([.date(XLSXDateTime(year: 2025, month: 1, day: 2)), usd(19_980)]),
                XLSXRow([.date(XLSXDateTime(year: 2025, month: 1, day: 3)), usd(-4_990)]),
            ],
            headerRow: 0,
            charts: [
                XLSXChart(
                    kind: .line, title: "Daily revenue",
                    categories: .init(name: "Day", sheet: "Daily Revenue", firstRow: 1, lastRow: 3, column: 0),
                    series: [.init(name: "USD", sheet: "Daily Revenue", firstRow: 1, lastRow: 3, column: 1)],
                    anchorRow: 1, anchorColumn: 3),
                XLSXChart(
                    kind: .column, title: "=Amount by product",
                    categories: .init(name: "Product", sheet: "Revenue", firstRow: 2, lastRow: 5, column: 1),
                    series: [.init(name: "Amount", sheet: "Revenue", firstRow: 2, lastRow: 5, column: 3)],
                    anchorRow: 18, anchorColumn: 3),
            ]),
    ])

    /// Writes ``document`` into `directory` and opens it as a zip.
    func writeDocument(in directory: String) throws -> XLSXArchive {
        let path = (directory as NSString).appendingPathComponent("report.xlsx")
        try XLSXWriter.write(Self.document, to: path, createdAt: Self.createdAt)
        return XLSXArchive(path: path)
    }

    /// The sorted entries of `directory`, including hidden ones (temporary files start with `.`).
    func leftovers(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    /// Runs `body` with a fresh directory that is removed afterwards.
    func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("xlsx-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }
}
