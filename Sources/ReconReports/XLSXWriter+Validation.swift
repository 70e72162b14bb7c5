import Foundation
import ReconFindings
import ReconModel
import ReconStorage

extension XLSXWriter {
    /// Checks everything that can be checked before a file exists: sheet names, header rows,
    /// column widths and chart references.
    package static func validate(_ document: XLSXDocument, path: String) throws {
        guard !document.sheets.isEmpty else {
            throw XLSXError.invalidDocument(path: path, location: "document", reason: "has no sheets")
        }
        var seen: Set<String> = []
        for sheet in document.sheets {
            if let reason = sheetNameProblem(sheet.name) {
                throw XLSXError.invalidSheetName(path: path, name: sheet.name, reason: reason)
            }
            // Excel compares sheet names case-insensitively.
            guard seen.insert(sheet.name.lowercased()).inserted else {
                throw XLSXError.invalidSheetName(path: path, name: sheet.name, reason: "is used twice")
            }
        }
        let sheetNames = Set(document.sheets.map(\.name))
        for sheet in document.sheets {
            let location = "sheet '\(sheet.name)'"
            guard sheet.rows.count <= XLSXWorkbook.maxRow + 1 else {
                throw XLSXError.invalidDocument(
                    path: path, location: location, reason: "has \(sheet.rows.count) rows, Excel allows 1048576")
            }
            if let headerRow = sheet.headerRow, !sheet.rows.indices.contains(headerRow) {
                throw XLSXError.invalidDocument(
                    path: path, location: location,
                    reason: "header row \(headerRow) is not one of its \(sheet.rows.count) rows")
            }
            for (column, width) in sheet.columnWidths.enumerated() {
                if let width, !(width.isFinite && width >= 0 && width <= 255) {
                    throw XLSXError.invalidDocument(
                        path: path, location: "\(location) column \(XLSXWorkbook.columnName(column))",
                        reason: "width \(width) is not between 0 and 255")
                }
            }
            for chart in sheet.charts {
                try validate(chart, in: sheet, sheetNames: sheetNames, path: path)
            }
        }
    }

    /// Checks that every stream goes to a sheet of the document that no chart reads (its rows are not kept).
    package static func validate(_ streams: [XLSXRowStream], of document: XLSXDocument, path: String) throws {
        let chartSources = document.chartSources
        var seen: Set<String> = []
        for stream in streams {
            let location = "rows streamed to sheet '\(stream.sheet)'"
            guard document.sheets.contains(where: { $0.name == stream.sheet }) else {
                throw XLSXError.invalidDocument(path: path, location: location, reason: "no such sheet")
            }
            guard !chartSources.contains(stream.sheet) else {
                throw XLSXError.invalidDocument(path: path, location: location, reason: "a chart reads that sheet")
            }
            guard seen.insert(stream.sheet).inserted else {
                throw XLSXError.invalidDocument(path: path, location: location, reason: "streamed twice")
            }
        }
    }

    package static func validate(
        _ chart: XLSXChart, in sheet: XLSXSheet, sheetNames: Set<String>, path: String
    ) throws {
        let location = "sheet '\(sheet.name)' chart '\(chart.title)'"
        guard !chart.series.isEmpty else {
            throw XLSXError.invalidDocument(path: path, location: location, reason: "has no series")
        }
        guard (0...XLSXWorkbook.maxRow).contains(chart.anchorRow),
            (0...XLSXWorkbook.maxColumn).contains(chart.anchorColumn)
        else {
            throw XLSXError.invalidDocument(
                path: path, location: location,
                reason: "anchor row \(chart.anchorRow) column \(chart.anchorColumn) is outside the sheet")
        }
        let ranges = [("categories", chart.categories)] + chart.series.map { ("series '\($0.name)'", $0) }
        for (label, range) in ranges {
            guard sheetNames.contains(range.sheet) else {
                throw XLSXError.invalidDocument(
                    path: path, location: "\(location) \(label)", reason: "refers to unknown sheet '\(range.sheet)'")
            }
            guard range.firstRow >= 0, range.firstRow <= range.lastRow, range.lastRow <= XLSXWorkbook.maxRow,
                (0...XLSXWorkbook.maxColumn).contains(range.column)
            else {
                throw XLSXError.invalidDocument(
                    path: path, location: "\(location) \(label)",
                    reason: "rows \(range.firstRow)...\(range.lastRow) column \(range.column) is not a valid range")
            }
        }
    }

    /// Why Excel would reject `name` as a sheet name, or nil when it is valid.
    package static func sheetNameProblem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        // Excel counts UTF-16 code units.
        if name.utf16.count > 31 { return "is longer than 31 characters" }
        if let bad = name.first(where: { "[]:*?/\\".contains($0) }) { return "contains '\(bad)'" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "contains a control character"
        }
        if name.hasPrefix("'") || name.hasSuffix("'") { return "starts or ends with an apostrophe" }
        if name.lowercased() == "history" { return "is reserved by Excel" }
        return nil
    }

    package static func validateDate(_ date: XLSXDateTime, sheet: String, row: Int, column: Int, path: String) throws {
        let valid =
            (1900...9999).contains(date.year) && (1...12).contains(date.month)
            && (1...daysIn(month: date.month, year: date.year)).contains(date.day)
            && (0...23).contains(date.hour) && (0...59).contains(date.minute) && (0...59).contains(date.second)
        guard valid else {
            func pad(_ value: Int, _ width: Int) -> String {
                let digits = String(value)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            let text =
                "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))"
                + " \(pad(date.hour, 2)):\(pad(date.minute, 2)):\(pad(date.second, 2))"
            throw XLSXError.invalidDocument(
                path: path, location: "sheet '\(sheet)' cell \(XLSXWorkbook.cellName(row: row, column: column))",
                reason: "\(text) is not a date Excel can store (1900-01-01...9999-12-31)")
        }
    }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
