import Foundation
import Testing

@testable import IAPRecon

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

    // MARK: - Reading back

    @Test func sheetNamesInWorkbookOrder() throws {
        try withTemporaryDirectory { directory in
            let archive = try writeDocument(in: directory)
            let workbook = try archive.entry("xl/workbook.xml")
            let names = workbook.matches(of: #/<sheet name="([^"]*)"/#).map { String($0.output.1) }
            #expect(names == ["Revenue", "Notes &amp; =Formulas", "Daily Revenue"])
        }
    }

    @Test func cellsHaveTheirTypesValuesAndNumberFormats() throws {
        try withTemporaryDirectory { directory in
            let archive = try writeDocument(in: directory)
            let cells = try archive.cells(sheet: 1)
            let strings = try archive.sharedStrings()

            func number(_ reference: String) throws -> (value: String?, format: String) {
                let cell = try #require(cells[reference], "no cell \(reference)")
                #expect(cell.type == nil, "\(reference) should be numeric")
                #expect(!cell.hasFormula)
                return (cell.value, try archive.numberFormat(style: cell.style))
            }
            func text(_ reference: String) throws -> String? {
                let cell = try #require(cells[reference], "no cell \(reference)")
                #expect(cell.type == "s", "\(reference) should be a shared string")
                return cell.value.flatMap(Int.init).flatMap { strings.indices.contains($0) ? strings[$0] : nil }
            }

            #expect(try text("A1") == "Revenue report")
            #expect(try text("B2") == "Product")
            #expect(try text("B3") == "Pro Monthly")
            // 2025-01-01 is Excel serial 45658; 2024-02-29 is 45351.
            #expect(try number("A3") == ("45658", "yyyy-mm-dd"))
            #expect(try number("A6") == ("45351", "yyyy-mm-dd"))
            #expect(try number("C3") == ("3", "0"))
            #expect(try number("C5") == ("-2", "0"))
            #expect(try number("D3") == ("9.99", #"#,##0.00 "USD""#))
            #expect(try number("D4") == ("1200", #"#,##0 "JPY""#))
            #expect(try number("D5") == ("1.25", #"#,##0.000 "KWD""#))
            #expect(try number("D6") == ("-4.99", #"#,##0.00 "USD""#))
            // One non-whole percentage gives the whole column one decimal.
            #expect(try number("E3") == ("0.7", "0.0%"))
            #expect(try number("E4") == ("0.123456", "0.0%"))
            let bookedAt = try number("F3")
            #expect(bookedAt.format == "yyyy-mm-dd hh:mm:ss")
            // 13:45:30 is 49530 s of 86400.
            let serial = try #require(bookedAt.value.flatMap(Double.init))
            #expect(abs(serial - (45658 + 49530.0 / 86400)) < 1e-9)
            #expect(try number("D7") == ("5", #"#,##0.00 "USD""#))
        }
    }

    @Test func rowStylesAreBoldBorderedFilledAndLarger() throws {
        try withTemporaryDirectory { directory in
            let archive = try writeDocument(in: directory)
            let cells = try archive.cells(sheet: 1)
            let styles = try archive.entry("xl/styles.xml")
            let fonts =
                styles.firstMatch(of: #/<fonts[^>]*>(.*?)</fonts>/#.dotMatchesNewlines())
                .map {
                    $0.output.1.matches(of: #/<font>(.*?)</font>/#.dotMatchesNewlines()).map { String($0.output.1) }
                }
                ?? []

            func font(of attributes: [String: String]) throws -> String {
                let index = try #require(attributes["fontId"].flatMap { Int($0) })
                return try #require(fonts.indices.contains(index) ? fonts[index] : nil)
            }

            let header = try archive.cellFormatAttributes(style: try #require(cells["A2"]).style)
            let headerFont = try font(of: header)
            #expect(headerFont.contains("<b/>"))
            #expect(header["borderId"].flatMap(Int.init).map { $0 > 0 } == true)
            #expect(header["fillId"].flatMap(Int.init).map { $0 > 1 } == true)
            #expect(styles.contains(#"rgb="FFD9E1F2""#))
            // The header fill continues over the header's cells, and only over them.
            #expect(cells["F2"] != nil)
            #expect(cells["G2"] == nil)

            let title = try archive.cellFormatAttributes(style: try #require(cells["A1"]).style)
            let titleFont = try font(of: title)
            #expect(titleFont.contains("<b/>"))
            #expect(titleFont.contains(#"<sz val="14"/>"#))

            let total = try archive.cellFormatAttributes(style: try #require(cells["A7"]).style)
            let totalFont = try font(of: total)
            #expect(totalFont.contains("<b/>"))
            #expect(total["fillId"] == "0")

            let body = try archive.cellFormatAttributes(style: try #require(cells["B3"]).style)
            #expect(body["fontId"] == "0")
        }
    }

    @Test func headerRowIsFrozenWithAnAutofilterToTheLastRow() throws {
        try withTemporaryDirectory { directory in
            let archive = try writeDocument(in: directory)
            let revenue = try archive.entry("xl/worksheets/sheet1.xml")
            #expect(revenue.contains(#"<pane ySplit="2" topLeftCell="A3" activePane="bottomLeft" state="frozen"/>"#))
            #expect(revenue.contains(#"<autoFilter ref="A2:F7"/>"#))

            let daily = try archive.entry("xl/worksheets/sheet3.xml")
            #expect(daily.contains(#"<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>"#))
            #expect(daily.contains(#"<autoFilter ref="A1:B4"/>"#))

            let notes = try archive.entry("xl/worksheets/sheet2.xml")
            #expect(!notes.contains("<pane"))
            #expect(!notes.contains("<autoFilter"))
        }
    }

    @Test func columnWidthsAreGivenOrComputedAndClamped() throws {
        try withTemporaryDirectory { directory in
            let archive = try writeDocument(in: directory)
            func widths(_ sheet: Int) throws -> [Int: Double] {
                let xml = try archive.entry("xl/worksheets/sheet\(sheet).xml")
                var result: [Int: Double] = [:]
                for match in xml.matches(of: #/<col min="([0-9]+)" max="([0-9]+)" width="([0-9.]+)"/#) {
                    guard let min = Int(match.output.1), let max = Int(match.output.2),
                        let width = Double(match.output.3)
                    else { continue }
                    for column in min...max { result[column] = width }
                }
                return result
            }
            // libxlsxwriter stores a width w as w + 0.7109375 (its pixel padding).
            let revenue = try widths(1)
            #expect(revenue[2].map { abs($0 - 30.7109375) < 1e-9 } == true, "given width of B")
            // A: "Date" header + filter button (4 + 2) vs dates (10): 10 + 2 padding.
            #expect(revenue[1].map { abs($0 - 12.7109375) < 1e-9 } == true, "computed width of A")
            // D: "-4.99 USD" and "1,200 JPY" are 9 wide; the title row does not count.
            #expect(revenue[4].map { abs($0 - 11.7109375) < 1e-9 } == true, "computed width of D")
            let notes = try widths(2)
            #expect(notes[1].map { abs($0 - 60.7109375) < 1e-9 } == true, "200 characters clamp to 60")
            #expect(notes[2].map { abs($0 - 19.7109375) < 1e-9 } == true, "17-digit text + 2")
            // C: 10 wide characters count 20 (more than the 18 of "+cmd|' /C calc'!A0"), + 2.
            #expect(notes[3].map { abs($0 - 22.7109375) < 1e-9 } == true, "wide characters count 2")
        }
    }

    @Test func textThatLooksLikeAFormulaStaysText() throws {
        try withTemporaryDirectory { directory in
            let archive = try writeDocument(in: directory)
            let cells = try archive.cells(sheet: 2)
            let shared = try archive.sharedStrings()
            let strings = cells.values.compactMap { archive.text(of: $0, strings: shared) }
            // No chart reads this sheet: it is written row by row, its text kept in the cells.
            for reference in ["A1", "B1", "C1", "A2", "B2"] {
                let cell = try #require(cells[reference])
                #expect(cell.type == "inlineStr", "\(reference) should be inline text")
                #expect(!cell.hasFormula, "\(reference) should have no formula")
            }
            let sheetXML = try archive.entry("xl/worksheets/sheet2.xml")
            #expect(!sheetXML.contains("<f>"))
            #expect(strings.contains("=SUM(A1:A3)"))
            #expect(strings.contains("+cmd|' /C calc'!A0"))
            // NULs are dropped, not truncating the string.
            #expect(strings.contains("ab"))
            // Beyond 15 digits an integer is written as text, keeping every digit.
            #expect(strings.contains("12345678901234567"))
            #expect(cells["C2"]?.type == nil)
            #expect(cells["C2"]?.value == "999999999999999")
        }
    }

    @Test func chartsReferenceTheirRanges() throws {
        try withTemporaryDirectory { directory in
            let archive = try writeDocument(in: directory)
            let names = try archive.entryNames()
            #expect(names.contains("xl/charts/chart1.xml"))
            #expect(names.contains("xl/charts/chart2.xml"))
            #expect(names.contains("xl/drawings/drawing1.xml"))
            let relationships = try archive.entry("xl/worksheets/_rels/sheet3.xml.rels")
            #expect(relationships.contains("../drawings/drawing1.xml"))

            let line = try archive.entry("xl/charts/chart1.xml")
            #expect(line.contains("<c:lineChart>"))
            #expect(line.contains("<c:f>'Daily Revenue'!$A$2:$A$4</c:f>"))
            #expect(line.contains("<c:f>'Daily Revenue'!$B$2:$B$4</c:f>"))
            #expect(line.contains("<a:t>Daily revenue</a:t>"))
            #expect(line.contains("<c:v>USD</c:v>"))
            // The cached values come from the cells, so viewers that do not recalculate agree.
            #expect(line.contains("<c:v>19.98</c:v>"))

            let column = try archive.entry("xl/charts/chart2.xml")
            #expect(column.contains(#"<c:barDir val="col"/>"#))
            #expect(column.contains("<c:f>Revenue!$B$3:$B$6</c:f>"))
            #expect(column.contains("<c:f>Revenue!$D$3:$D$6</c:f>"))
            // A literal title starting with "=" is not turned into a formula.
            #expect(column.contains("<a:t> =Amount by product</a:t>"))

            let drawing = try archive.entry("xl/drawings/drawing1.xml")
            #expect(drawing.contains("<xdr:col>3</xdr:col>"))
            #expect(drawing.contains("<xdr:row>1</xdr:row>"))
            #expect(drawing.contains("<xdr:row>18</xdr:row>"))
        }
    }

    @Test func sheetDumpsMatchTheGoldenCSV() throws {
        try withTemporaryDirectory { directory in
            let archive = try writeDocument(in: directory)
            #expect(
                try archive.csv(sheet: 1) == """
                    Revenue report
                    Date,Product,Units,Amount,Share,Booked at
                    45658 {yyyy-mm-dd},Pro Monthly,3 {0},"9.99 {#,##0.00 ""USD""}",0.7 {0.0%},\
                    45658.57326388889 {yyyy-mm-dd hh:mm:ss}
                    45659 {yyyy-mm-dd},Pro Yearly,1 {0},"1200 {#,##0 ""JPY""}",0.123456 {0.0%}
                    45716 {yyyy-mm-dd},Coins,-2 {0},"1.25 {#,##0.000 ""KWD""}",0 {0.0%}
                    45351 {yyyy-mm-dd},Refund,0 {0},"-4.99 {#,##0.00 ""USD""}"
                    Total,,2 {0},"5 {#,##0.00 ""USD""}"

                    """)
            #expect(
                try archive.csv(sheet: 3) == """
                    Day,USD
                    45658 {yyyy-mm-dd},"9.99 {#,##0.00 ""USD""}"
                    45659 {yyyy-mm-dd},"19.98 {#,##0.00 ""USD""}"
                    45660 {yyyy-mm-dd},"-4.99 {#,##0.00 ""USD""}"

                    """)
        }
    }

    // MARK: - Determinism and properties

    @Test func sameDocumentAndCreationTimeGiveIdenticalBytes() throws {
        try withTemporaryDirectory { directory in
            let first = (directory as NSString).appendingPathComponent("first.xlsx")
            let second = (directory as NSString).appendingPathComponent("second.xlsx")
            try XLSXWriter.write(Self.document, to: first, createdAt: Self.createdAt)
            try XLSXWriter.write(Self.document, to: second, createdAt: Self.createdAt)
            let firstData = try Data(contentsOf: URL(fileURLWithPath: first))
            let secondData = try Data(contentsOf: URL(fileURLWithPath: second))
            #expect(!firstData.isEmpty)
            #expect(firstData == secondData)

            let core = try XLSXArchive(path: first).entry("docProps/core.xml")
            #expect(
                core.contains(#"<dcterms:created xsi:type="dcterms:W3CDTF">2025-01-02T03:04:05Z</dcterms:created>"#))
        }
    }

    @Test func fileModeIs0640EvenWhenReplacingAFile() throws {
        try withTemporaryDirectory { directory in
            let path = (directory as NSString).appendingPathComponent("report.xlsx")
            #expect(FileManager.default.createFile(atPath: path, contents: Data("old".utf8)))
            #expect(chmod(path, 0o644) == 0)
            try XLSXWriter.write(Self.document, to: path, createdAt: Self.createdAt)
            var info = stat()
            #expect(stat(path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o640)
            #expect(try XLSXArchive(path: path).entryNames().contains("xl/workbook.xml"))
            #expect(try leftovers(in: directory) == ["report.xlsx"])
        }
    }

    // MARK: - Errors

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

    @Test func unwritablePathThrowsOneLineErrorNamingThePath() throws {
        try withTemporaryDirectory { directory in
            // Tests may run as root, which ignores permission bits: use paths no one can write.
            let missing = (directory as NSString).appendingPathComponent("missing/report.xlsx")
            let file = (directory as NSString).appendingPathComponent("plain-file")
            #expect(FileManager.default.createFile(atPath: file, contents: Data()))
            let underFile = (file as NSString).appendingPathComponent("report.xlsx")
            for path in [missing, underFile] {
                let error = #expect(throws: XLSXError.self) { try XLSXWriter.write(Self.document, to: path) }
                let message = try #require(error?.errorDescription)
                #expect(message.contains("'\(path)'"))
                #expect(!message.contains("\n"))
                #expect(message.contains("creating a temporary file"))
            }
            #expect(try leftovers(in: directory) == ["plain-file"])
        }
    }

    @Test func failedRenameRemovesTheTemporaryFile() throws {
        try withTemporaryDirectory { directory in
            // The target is a non-empty directory: everything succeeds up to the rename.
            let path = (directory as NSString).appendingPathComponent("report.xlsx")
            try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
            let error = #expect(throws: XLSXError.self) { try XLSXWriter.write(Self.document, to: path) }
            let message = try #require(error?.errorDescription)
            #expect(message.hasPrefix("cannot write XLSX file '\(path)': renaming the temporary file into place:"))
            #expect(try leftovers(in: directory) == ["report.xlsx"])
        }
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

    @Test func libraryErrorsCarryTheCellAndLxwStrerror() throws {
        try withTemporaryDirectory { directory in
            let path = (directory as NSString).appendingPathComponent("report.xlsx")
            let tooLong = String(repeating: "x", count: 32_768)
            let document = XLSXDocument(sheets: [XLSXSheet(name: "Long", rows: [XLSXRow([.empty, .text(tooLong)])])])
            let error = #expect(throws: XLSXError.self) { try XLSXWriter.write(document, to: path) }
            guard case .library(let errorPath, let location, let code, let message)? = error else {
                Issue.record("expected a library error, got \(String(describing: error))")
                return
            }
            #expect(errorPath == path)
            #expect(location == "sheet 'Long' cell B1")
            #expect(code > 0)
            #expect(message.contains("32,767") || message.contains("32767"))
            let remaining = try leftovers(in: directory)
            #expect(remaining.isEmpty)
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

    @Test func workbookIsFreedWithoutWritingWhenNotClosed() throws {
        try withTemporaryDirectory { directory in
            let path = (directory as NSString).appendingPathComponent("dropped.xlsx")
            do {
                let workbook = try XLSXWorkbook(filePath: path, displayPath: path)
                let sheet = try workbook.addWorksheet(named: "S")
                try workbook.writeString("x", row: 0, column: 0, in: sheet, format: .init(style: .header))
            }
            #expect(!FileManager.default.fileExists(atPath: path))

            let workbook = try XLSXWorkbook(filePath: path, displayPath: path)
            _ = try workbook.addWorksheet(named: "S")
            try workbook.close()
            #expect(FileManager.default.fileExists(atPath: path))
            // A second close is refused instead of freeing twice.
            #expect(throws: XLSXError.invalidDocument(path: path, location: "workbook", reason: "already closed")) {
                try workbook.close()
            }
        }
    }

    // MARK: - Formats and helpers

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

    // MARK: - Helpers

    /// Writes ``document`` into `directory` and opens it as a zip.
    private func writeDocument(in directory: String) throws -> XLSXArchive {
        let path = (directory as NSString).appendingPathComponent("report.xlsx")
        try XLSXWriter.write(Self.document, to: path, createdAt: Self.createdAt)
        return XLSXArchive(path: path)
    }

    /// The sorted entries of `directory`, including hidden ones (temporary files start with `.`).
    private func leftovers(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    /// Runs `body` with a fresh directory that is removed afterwards.
    private func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("xlsx-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }
}
