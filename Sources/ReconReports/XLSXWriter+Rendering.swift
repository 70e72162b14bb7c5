import Foundation
import ReconFindings
import ReconModel
import ReconStorage

extension XLSXWriter {
    /// Builds the workbook and closes it, which writes `filePath`.
    package static func render(
        _ document: XLSXDocument, streams: [XLSXRowStream], to filePath: String, displayPath: String,
        createdAt: Int64?
    ) throws -> [XLSXWarning] {
        let workbook = try XLSXWorkbook(filePath: filePath, displayPath: displayPath)
        if let createdAt {
            // Round down to whole seconds, also before 1970.
            let (seconds, milliseconds) = createdAt.quotientAndRemainder(dividingBy: 1000)
            try workbook.setCreationTime(epochSeconds: milliseconds < 0 ? seconds - 1 : seconds)
        }
        // All sheets exist before any chart refers to one. A sheet no chart reads is written row by
        // row, so a long one never sits in memory; a chart's sheet stays in memory, so the chart
        // carries its values for viewers that do not recalculate.
        let chartSources = document.chartSources
        var worksheets: [XLSXWorkbook.Worksheet] = []
        for sheet in document.sheets {
            worksheets.append(
                try workbook.addWorksheet(named: sheet.name, rowByRow: !chartSources.contains(sheet.name)))
        }
        var warnings: [XLSXWarning] = []
        for (sheet, worksheet) in zip(document.sheets, worksheets) {
            let stream = streams.first { $0.sheet == sheet.name }
            warnings += try render(sheet, appending: stream, into: worksheet, of: workbook)
        }
        try workbook.close()
        return warnings
    }

    package static func render(
        _ sheet: XLSXSheet, appending stream: XLSXRowStream?, into worksheet: XLSXWorkbook.Worksheet,
        of workbook: XLSXWorkbook
    ) throws -> [XLSXWarning] {
        let decimalPercentColumns = percentColumnsWithDecimals(of: sheet)
        var widths = ColumnWidths(given: sheet.columnWidths)
        var currencies = CurrencyFormats()
        func add(_ row: XLSXRow, at rowIndex: Int) throws {
            for (columnIndex, cell) in row.cells.enumerated() {
                try write(
                    cell, style: row.style, row: rowIndex, column: columnIndex,
                    percentFormat: decimalPercentColumns.contains(columnIndex) ? "0.0%" : "0%",
                    currencies: &currencies, sheet: worksheet, workbook)
            }
            widths.add(row, isHeader: rowIndex == sheet.headerRow)
        }
        for (rowIndex, row) in sheet.rows.enumerated() { try add(row, at: rowIndex) }
        var rowCount = sheet.rows.count
        var warnings: [XLSXWarning] = []
        if let stream {
            let maxRows = XLSXWorkbook.maxRow + 1
            // The sheet's last row is written once it is known whether more follow (then it says how many).
            var last: XLSXRow?
            var dropped = 0
            try stream.rows { row in
                if rowCount < maxRows - 1 {
                    var row = row
                    for c in row.cells.indices {
                        guard let (text, problem) = XLSXDocument.unstorable(row.cells[c]) else { continue }
                        row.cells[c] = .text(text)
                        let cell = XLSXWorkbook.cellName(row: rowCount, column: c)
                        warnings.append(XLSXWarning(sheet: sheet.name, cell: cell, text: "\(problem); written as text"))
                    }
                    try add(row, at: rowCount)
                    rowCount += 1
                } else if last == nil, dropped == 0 {
                    last = row
                } else {
                    dropped += last == nil ? 1 : 2
                    last = nil
                }
            }
            if let row = last {
                try add(row, at: rowCount)
                rowCount += 1
            } else if dropped > 0 {
                try add(XLSXRow([.text("… \(dropped) more rows not shown (a sheet holds \(maxRows))")]), at: rowCount)
                rowCount += 1
                warnings.append(
                    XLSXWarning(sheet: sheet.name, text: "\(dropped) rows beyond Excel's \(maxRows) not shown"))
            }
        }
        for (column, width) in widths.widths().enumerated() {
            try workbook.setColumnWidth(width, column: column, in: worksheet)
        }
        if let headerRow = sheet.headerRow {
            try workbook.freezePanes(row: headerRow + 1, column: 0, in: worksheet)
            let headerColumns = sheet.rows[headerRow].cells.count
            if headerColumns > 0 {
                try workbook.autofilter(
                    firstRow: headerRow, firstColumn: 0, lastRow: max(headerRow, rowCount - 1),
                    lastColumn: headerColumns - 1, in: worksheet)
            }
        }
        for chart in sheet.charts {
            try workbook.insertChart(chart, into: worksheet)
        }
        try workbook.setPrintLayout(repeatingRow: sheet.headerRow, in: worksheet)
        return warnings
    }

    package static func write(
        _ cell: XLSXCell, style: XLSXRowStyle, row: Int, column: Int, percentFormat: String,
        currencies: inout CurrencyFormats, sheet: XLSXWorkbook.Worksheet, _ workbook: XLSXWorkbook
    ) throws {
        let plain = XLSXWorkbook.CellFormat(style: style)
        switch cell {
        case .empty:
            // Styled rows keep their look (the header fill) across empty cells.
            if style != .normal { try workbook.writeBlank(row: row, column: column, in: sheet, format: plain) }
        case .text(let text):
            try workbook.writeString(text, row: row, column: column, in: sheet, format: plain)
        case .integer(let value):
            if value.magnitude <= maxExactInteger.magnitude {
                try workbook.writeNumber(
                    Double(value), row: row, column: column, in: sheet,
                    format: .init(style: style, numberFormat: "0"))
            } else {
                try workbook.writeString(String(value), row: row, column: column, in: sheet, format: plain)
            }
        case .money(let money), .amount(let money):
            // Round to the currency's own decimals first, so Excel's sums match the CSV's.
            let formats = currencies.formats(of: money.currency)
            let shown = shownValue(money.milliunits, decimals: formats.decimals)
            let numberFormat: String
            if case .money = cell {
                numberFormat = formats.money
            } else {
                numberFormat = formats.amount
            }
            try workbook.writeNumber(
                shown, row: row, column: column, in: sheet, format: .init(style: style, numberFormat: numberFormat))
        case .date(let date):
            try validateDate(date, sheet: sheet.name, row: row, column: column, path: workbook.displayPath)
            let day = XLSXDateTime(year: date.year, month: date.month, day: date.day)
            try workbook.writeDateTime(
                day, row: row, column: column, in: sheet, format: .init(style: style, numberFormat: "yyyy-mm-dd"))
        case .dateTime(let dateTime):
            try validateDate(dateTime, sheet: sheet.name, row: row, column: column, path: workbook.displayPath)
            try workbook.writeDateTime(
                dateTime, row: row, column: column, in: sheet,
                format: .init(style: style, numberFormat: "yyyy-mm-dd hh:mm:ss"))
        case .percent(let ppm):
            try workbook.writeNumber(
                Double(ppm) / 1_000_000, row: row, column: column, in: sheet,
                format: .init(style: style, numberFormat: percentFormat))
        }
    }
}
