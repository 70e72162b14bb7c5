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
}
