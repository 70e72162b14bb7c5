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

/// Rows streamed into a sheet (the findings, the pending rows): written after the sheet's own rows as they are read,
/// never held, with the same layout and the same care for values the format cannot hold.
@Suite struct XLSXStreamTests {
    static let header = XLSXRow([.text("id"), .text("when"), .text("detail")], style: .header)

    static func document(charted: Bool = false) -> XLSXDocument {
        let data = XLSXSheet(
            name: "Data",
            rows: [XLSXRow([.text("Day"), .text("USD")], style: .header), XLSXRow([.integer(1), .integer(2)])],
            headerRow: 0,
            charts: charted
                ? [
                    XLSXChart(
                        kind: .line, title: "t",
                        categories: .init(name: "Day", sheet: "Data", firstRow: 1, lastRow: 1, column: 0),
                        series: [.init(name: "USD", sheet: "Data", firstRow: 1, lastRow: 1, column: 1)],
                        anchorRow: 0, anchorColumn: 3)
                ] : [])
        return XLSXDocument(sheets: [data, XLSXSheet(name: "Findings", rows: [header], headerRow: 0)])
    }

    @Test func streamedRowsFollowTheSheetsOwnAndShapeItsLayout() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/s.xlsx"
            let detail = String(repeating: "x", count: 40)
            let stream = XLSXRowStream(sheet: "Findings") { row in
                for i in 1...3 {
                    try row(
                        XLSXRow([
                            .text("f\(i)"), .dateTime(XLSXDateTime(year: 2026, month: 11, day: i, hour: 12)),
                            .text(i == 3 ? detail : "short"),
                        ]))
                }
            }
            let warnings = try XLSXWriter.write(Self.document(), streams: [stream], to: path, createdAt: 0)
            #expect(warnings.isEmpty)
            let archive = XLSXArchive(path: path)
            let csv = try archive.csv(sheet: 2)
            #expect(
                csv
                    == """
                    id,when,detail
                    f1,46327.5 {yyyy-mm-dd hh:mm:ss},short
                    f2,46328.5 {yyyy-mm-dd hh:mm:ss},short
                    f3,46329.5 {yyyy-mm-dd hh:mm:ss},\(detail)

                    """, "\(csv)")
            let xml = try archive.entry("xl/worksheets/sheet2.xml")
            // The autofilter reaches the last streamed row; the detail column is as wide as its longest text.
            #expect(xml.contains(#"<autoFilter ref="A1:C4"/>"#))
            #expect(xml.contains(#"<col min="3" max="3" width="42.7109375" customWidth="1"/>"#))
            #expect(xml.contains(#"t="inlineStr""#))
        }
    }

    @Test func aStreamedValueTheFormatCannotHoldIsTextWithAWarning() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/s.xlsx"
            let stream = XLSXRowStream(sheet: "Findings") { row in
                // A Go zero time kept by an older import.
                try row(XLSXRow([.text("f1"), .dateTime(XLSXDateTime(year: 1, month: 1, day: 1)), .text("d")]))
            }
            let warnings = try XLSXWriter.write(Self.document(), streams: [stream], to: path, createdAt: 0)
            #expect(
                warnings == [
                    XLSXWarning(
                        sheet: "Findings", cell: "B2",
                        text:
                            "0001-01-01 00:00:00 is not a date Excel can store (1900-01-01...9999-12-31); written as text"
                    )
                ])
            #expect(try XLSXArchive(path: path).csv(sheet: 2).contains("f1,0001-01-01 00:00:00,d"))
        }
    }

    @Test func aChartsSheetCannotBeStreamedAndNothingIsWritten() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/s.xlsx"
            let stream = XLSXRowStream(sheet: "Data") { _ in }
            #expect(throws: XLSXError.self) {
                try XLSXWriter.write(Self.document(charted: true), streams: [stream], to: path, createdAt: 0)
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    /// More rows than a sheet holds: the first 1,048,575 are written, the last row counts the others.
    @Test func rowsBeyondTheSheetsLastAreCountedNotWritten() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/s.xlsx"
            // The header and 1,048,577 streamed rows, two more than the sheet holds: as the last row says how many are
            // not shown, 1,048,574 are written and 3 counted.
            let rows = XLSXWorkbook.maxRow + 1 + 2
            let stream = XLSXRowStream(sheet: "Findings") { row in
                for i in 1..<rows { try row(XLSXRow([.integer(Int64(i))])) }
            }
            let warnings = try XLSXWriter.write(Self.document(), streams: [stream], to: path, createdAt: 0)
            #expect(warnings == [XLSXWarning(sheet: "Findings", text: "3 rows beyond Excel's 1048576 not shown")])
            let xml = try XLSXArchive(path: path).entry("xl/worksheets/sheet2.xml")
            // The last data row is 1,048,575 (the 1,048,574th streamed); the note takes the sheet's last row.
            #expect(xml.contains(#"<row r="1048575"><c r="A1048575" s="#))
            #expect(xml.contains("<v>1048574</v>"))
            #expect(!xml.contains("<v>1048575</v>"))
            #expect(xml.contains("… 3 more rows not shown (a sheet holds 1048576)"))
            #expect(xml.contains(#"<autoFilter ref="A1:C1048576"/>"#))
        }
    }

    private func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("xlsx-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }
}
