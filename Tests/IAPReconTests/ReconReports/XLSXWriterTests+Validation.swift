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
        ("", "is empty"),
        ("Q1/Q2", "contains '/'"),
        ("Sheet[1]", "contains '['"),
        ("What?", "contains '?'"),
        ("a:b", "contains ':'"),
        ("star*", "contains '*'"),
        ("back\\slash", "contains '\\'"),
        (String(repeating: "x", count: 32), "is longer than 31 characters"),
        ("'quoted'", "starts or ends with an apostrophe"),
        ("history", "is reserved by Excel"),
        ("tab\there", "contains a control character"),
    ])
    func invalidSheetNamesThrow(name: String, reason: String) throws {
        try withTemporaryDirectory { directory in
            let path = (directory as NSString).appendingPathComponent("bad.xlsx")
            let document = XLSXDocument(sheets: [XLSXSheet(name: name, rows: [XLSXRow([.text("x")])])])
            let error = #expect(throws: XLSXError.self) { try XLSXWriter.write(document, to: path) }
            #expect(error == .invalidSheetName(path: path, name: name, reason: reason))
            #expect(error?.errorDescription?.contains(path) == true)
            let remaining = try leftovers(in: directory)
            #expect(remaining.isEmpty)
        }
    }

    @Test func thirtyOneCharacterNamesAreFine() throws {
        try withTemporaryDirectory { directory in
            let path = (directory as NSString).appendingPathComponent("ok.xlsx")
            let name = String(repeating: "é", count: 31)
            try XLSXWriter.write(XLSXDocument(sheets: [XLSXSheet(name: name, rows: [])]), to: path)
            let workbook = try XLSXArchive(path: path).entry("xl/workbook.xml")
            #expect(workbook.contains(#"<sheet name="\#(name)""#))
        }
    }

    @Test func duplicateSheetNamesThrowIgnoringCase() throws {
        let document = XLSXDocument(sheets: [
            XLSXSheet(name: "Revenue", rows: []), XLSXSheet(name: "REVENUE", rows: []),
        ])
        let error = #expect(throws: XLSXError.self) { try XLSXWriter.write(document, to: "/tmp/never-written.xlsx") }
        #expect(error == .invalidSheetName(path: "/tmp/never-written.xlsx", name: "REVENUE", reason: "is used twice"))
    }

    @Test func invalidCellNamesSheetAndCellAndKeepsTheOldFile() throws {
        try withTemporaryDirectory { directory in
            let path = (directory as NSString).appendingPathComponent("report.xlsx")
            try XLSXWriter.write(Self.document, to: path, createdAt: Self.createdAt)
            let before = try Data(contentsOf: URL(fileURLWithPath: path))

            let bad = XLSXDocument(sheets: [
                XLSXSheet(
                    name: "Dates", rows: [XLSXRow([.text("ok"), .date(XLSXDateTime(year: 2025, month: 2, day: 29))])])
            ])
            let error = #expect(throws: XLSXError.self) { try XLSXWriter.write(bad, to: path) }
            #expect(
                error?.errorDescription
                    == "cannot write XLSX file '\(path)': sheet 'Dates' cell B1: 2025-02-29 00:00:00 is not a date"
                    + " Excel can store (1900-01-01...9999-12-31)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            #expect(try leftovers(in: directory) == ["report.xlsx"])
        }
    }

    @Test func invalidStructureIsRejectedBeforeWriting() throws {
        let series = XLSXChart.Series(name: "S", sheet: "Data", firstRow: 0, lastRow: 2, column: 0)
        func chart(_ categories: XLSXChart.Series, _ series: [XLSXChart.Series]) -> XLSXChart {
            XLSXChart(kind: .line, title: "T", categories: categories, series: series, anchorRow: 0, anchorColumn: 2)
        }
        let rows = [XLSXRow([.integer(1)])]
        let cases: [(XLSXSheet, String)] = [
            (XLSXSheet(name: "Data", rows: rows, headerRow: 1), "sheet 'Data': header row 1 is not one of its 1 rows"),
            (
                XLSXSheet(name: "Data", rows: rows, columnWidths: [-1]),
                "sheet 'Data' column A: width -1.0 is not between 0 and 255"
            ),
            (
                XLSXSheet(name: "Data", rows: rows, charts: [chart(series, [])]),
                "sheet 'Data' chart 'T': has no series"
            ),
            (
                XLSXSheet(
                    name: "Data", rows: rows,
                    charts: [chart(series, [.init(name: "S", sheet: "Other", firstRow: 0, lastRow: 2, column: 1)])]),
                "sheet 'Data' chart 'T' series 'S': refers to unknown sheet 'Other'"
            ),
            (
                XLSXSheet(
                    name: "Data", rows: rows,
                    charts: [chart(.init(name: "C", sheet: "Data", firstRow: 3, lastRow: 2, column: 0), [series])]),
                "sheet 'Data' chart 'T' categories: rows 3...2 column 0 is not a valid range"
            ),
        ]
        for (sheet, expected) in cases {
            let error = #expect(throws: XLSXError.self) {
                try XLSXWriter.write(XLSXDocument(sheets: [sheet]), to: "/nonexistent/r.xlsx")
            }
            #expect(error?.errorDescription == "cannot write XLSX file '/nonexistent/r.xlsx': \(expected)")
        }
        #expect(throws: XLSXError.invalidDocument(path: "/x.xlsx", location: "document", reason: "has no sheets")) {
            try XLSXWriter.write(XLSXDocument(sheets: []), to: "/x.xlsx")
        }
    }
}
