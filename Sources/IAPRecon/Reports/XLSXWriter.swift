import Foundation

/// Renders an ``XLSXDocument`` into an `.xlsx` file with libxlsxwriter.
///
/// - Text is written as text, never as formulas (`=SUM(A1)` stays text): shared strings on a
///   sheet a chart reads, inline strings on the others, which are written row by row.
/// - Integers are numbers (format `0`); integers beyond Excel's 15 significant digits are
///   written as text so no digit is lost.
/// - Money is a number (milliunits / 1000, only here at the file-format boundary) with a number
///   format of the currency's own decimals and its code, e.g. `#,##0.00 "USD"`; negative
///   amounts show a minus. Unknown currencies get 2 decimals, like ``Money/formatted``.
/// - Dates and date-times are real date cells (`yyyy-mm-dd`, `yyyy-mm-dd hh:mm:ss`).
/// - Percentages come from parts per million: `0%` when every percentage in the column is
///   whole, else `0.0%` for the whole column, so the column stays aligned.
/// - The header row is frozen and carries an autofilter down to the last row.
/// - Columns without a given width are sized from their longest rendered content (title rows
///   excluded: titles overflow into the empty cells beside them), clamped to 8...60.
///
/// The file is written to a temporary file in the same directory and renamed over `path`, so
/// readers never see a half-written report; it gets mode `0640`.
public enum XLSXWriter {
    /// The narrowest and widest computed column widths, in Excel character units.
    static let computedWidthRange: ClosedRange<Double> = 8...60
    /// The largest magnitude written as a numeric integer cell (Excel keeps 15 digits).
    static let maxExactInteger: Int64 = 999_999_999_999_999
    /// The mode of the written file: owner read/write, group read.
    static let fileMode: mode_t = 0o640

    /// Writes `document` to `path` atomically.
    ///
    /// - Parameters:
    ///   - document: The sheets to write; validated before any file is touched.
    ///   - path: The final file path; its directory must exist. An existing file is replaced.
    ///   - createdAt: The creation time stored in the document properties, in milliseconds
    ///     since 1970 (UTC), normally the run's clock. Pass it for reproducible files: with the
    ///     same document and `createdAt` two runs write identical bytes. Nil stores the current
    ///     time (as does any value in the first second of 1970, which libxlsxwriter reads as
    ///     "unset").
    /// - Throws: ``XLSXError`` with a one-line message naming `path` and the sheet, cell or
    ///   step. No temporary file is left behind and an existing file at `path` is untouched.
    /// - Parameter streams: rows appended to sheets after their own, read as they are written and never all in
    ///   memory (no chart may read such a sheet). A streamed cell the format cannot hold is written as text, and a
    ///   row beyond the sheet's last is left out and counted in a last row; each is a returned warning.
    /// - Returns: the warnings of the streamed rows, each with its sheet.
    @discardableResult
    public static func write(
        _ document: XLSXDocument, streams: [XLSXRowStream] = [], to path: String, createdAt: Int64? = nil
    ) throws -> [XLSXWarning] {
        try validate(document, path: path)
        try validate(streams, of: document, path: path)
        let temporary = try createTemporaryFile(for: path)
        var warnings: [XLSXWarning] = []
        do {
            warnings = try render(document, streams: streams, to: temporary, displayPath: path, createdAt: createdAt)
            try syncFile(temporary, displayPath: path)
            guard chmod(temporary, fileMode) == 0 else {
                throw XLSXError.fileSystem(path: path, operation: "setting the file mode", reason: errnoText())
            }
            guard rename(temporary, path) == 0 else {
                throw XLSXError.fileSystem(
                    path: path, operation: "renaming the temporary file into place", reason: errnoText())
            }
        } catch {
            unlink(temporary)
            throw error
        }
        syncDirectory(of: path)
        return warnings
    }

    // MARK: - Rendering

    /// Builds the workbook and closes it, which writes `filePath`.
    private static func render(
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

    private static func render(
        _ sheet: XLSXSheet, appending stream: XLSXRowStream?, into worksheet: XLSXWorkbook.Worksheet,
        of workbook: XLSXWorkbook
    ) throws -> [XLSXWarning] {
        let decimalPercentColumns = percentColumnsWithDecimals(of: sheet)
        var widths = ColumnWidths()
        func add(_ row: XLSXRow, at rowIndex: Int) throws {
            for (columnIndex, cell) in row.cells.enumerated() {
                try write(
                    cell, style: row.style, row: rowIndex, column: columnIndex,
                    percentFormat: decimalPercentColumns.contains(columnIndex) ? "0.0%" : "0%",
                    sheet: worksheet, workbook)
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
        for (column, width) in widths.widths(given: sheet.columnWidths).enumerated() {
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

    private static func write(
        _ cell: XLSXCell, style: XLSXRowStyle, row: Int, column: Int, percentFormat: String,
        sheet: XLSXWorkbook.Worksheet, _ workbook: XLSXWorkbook
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
        case .money(let money):
            // Round to the currency's own decimals first, so Excel's sums match the CSV's.
            let decimals = Currency.lookup(money.currency)?.decimals ?? 2
            let shown = Double(Money.format(milliunits: money.milliunits, decimals: decimals)) ?? 0
            try workbook.writeNumber(
                shown, row: row, column: column, in: sheet,
                format: .init(style: style, numberFormat: moneyFormat(money.currency)))
        case .amount(let money):
            let decimals = Currency.lookup(money.currency)?.decimals ?? 2
            let shown = Double(Money.format(milliunits: money.milliunits, decimals: decimals)) ?? 0
            try workbook.writeNumber(
                shown, row: row, column: column, in: sheet,
                format: .init(style: style, numberFormat: amountFormat(money.currency)))
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

    // MARK: - Number formats and rendered text

    /// The number format of a money cell: the currency's decimals and its code
    /// (`#,##0.00 "USD"`, `#,##0 "JPY"`, `#,##0.000 "KWD"`).
    static func moneyFormat(_ currency: String) -> String {
        var format = amountFormat(currency)
        // Only letters and digits go inside the quotes, so a stray code cannot break the format.
        let code = String(
            currency.uppercased().unicodeScalars
                .filter { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
                .prefix(8).map(Character.init))
        if !code.isEmpty { format += " \"\(code)\"" }
        return format
    }

    /// The columns holding a percentage that is not whole (`12.5%`): they get `0.0%`.
    ///
    /// The number format of an amount in `currency` without its code: its own decimals (`#,##0.00`, `#,##0` for JPY,
    /// `#,##0.000` for KWD).
    public static func amountFormat(_ currency: String) -> String {
        let decimals = Currency.lookup(currency)?.decimals ?? 2
        return decimals > 0 ? "#,##0." + String(repeating: "0", count: decimals) : "#,##0"
    }

    static func percentColumnsWithDecimals(of sheet: XLSXSheet) -> Set<Int> {
        var columns: Set<Int> = []
        for row in sheet.rows {
            for (column, cell) in row.cells.enumerated() {
                if case .percent(let ppm) = cell, ppm % 10_000 != 0 { columns.insert(column) }
            }
        }
        return columns
    }

    /// The text Excel shows for `cell` (approximately), used to size columns.
    static func renderedText(_ cell: XLSXCell) -> String {
        switch cell {
        case .empty:
            return ""
        case .text(let text):
            return text
        case .integer(let value):
            return String(value)
        case .money(let money):
            let decimals = Currency.lookup(money.currency)?.decimals ?? 2
            let plain = Money.format(milliunits: money.milliunits, decimals: decimals)
            return grouped(plain) + " " + money.currency.uppercased()
        case .amount(let money):
            let decimals = Currency.lookup(money.currency)?.decimals ?? 2
            return grouped(Money.format(milliunits: money.milliunits, decimals: decimals))
        case .date:
            return "0000-00-00"
        case .dateTime:
            return "0000-00-00 00:00:00"
        case .percent(let ppm):
            if ppm % 10_000 == 0 { return "\(ppm / 10_000)%" }
            // ppm / 10 is thousandths of a percent; `0.0%` shows one decimal.
            return Money.format(milliunits: ppm / 10, decimals: 1) + "%"
        }
    }

    /// Inserts thousands separators into a plain decimal (`-1234567.50` → `-1,234,567.50`).
    static func grouped(_ plain: String) -> String {
        let negative = plain.hasPrefix("-")
        let unsigned = negative ? plain.dropFirst() : Substring(plain)
        let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = Array(parts.first ?? "")
        var result = ""
        for (index, digit) in whole.enumerated() {
            if index > 0 && (whole.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        if parts.count > 1 { result += "." + parts[1] }
        return (negative ? "-" : "") + result
    }

    /// The width of `text` in Excel character units: its longest line, East Asian wide
    /// characters counting two.
    static func displayWidth(_ text: String) -> Int {
        // Most cells are one line of ASCII: one column per byte (every byte is a character; no
        // line breaks, 0x0A–0x0D).
        if text.utf8.allSatisfy({ $0 < 0x80 && !(0x0A...0x0D).contains($0) }) { return text.utf8.count }
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { line in
            line.reduce(0) { total, character in
                total + (character.unicodeScalars.first.map(isWide) == true ? 2 : 1)
            }
        }.max() ?? 0
    }

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// The width of every column that has content or a given width: the given one, else the
    /// longest rendered content plus padding, clamped to ``computedWidthRange``.
    static func columnWidths(of sheet: XLSXSheet) -> [Double] {
        var widths = ColumnWidths()
        for (rowIndex, row) in sheet.rows.enumerated() { widths.add(row, isHeader: rowIndex == sheet.headerRow) }
        return widths.widths(given: sheet.columnWidths)
    }

    /// The longest rendered content of each column, gathered row by row.
    struct ColumnWidths {
        private var longest: [Int] = []

        /// Counts `row` (a title row does not count: it overflows into the empty cells beside it).
        mutating func add(_ row: XLSXRow, isHeader: Bool) {
            guard row.style != .title else { return }
            // The autofilter button takes about two characters of the header cell.
            let extra = isHeader ? 2 : 0
            if longest.count < row.cells.count {
                longest += Array(repeating: 0, count: row.cells.count - longest.count)
            }
            for (column, cell) in row.cells.enumerated() {
                longest[column] = max(longest[column], XLSXWriter.displayWidth(XLSXWriter.renderedText(cell)) + extra)
            }
        }

        /// The width of every column that has content or a given width.
        func widths(given: [Double?]) -> [Double] {
            (0..<max(given.count, longest.count)).map { column in
                if column < given.count, let width = given[column] { return width }
                let computed = Double((column < longest.count ? longest[column] : 0) + 2)
                return min(max(computed, computedWidthRange.lowerBound), computedWidthRange.upperBound)
            }
        }
    }

    // MARK: - Validation

    /// Checks everything that can be checked before a file exists: sheet names, header rows,
    /// column widths and chart references.
    static func validate(_ document: XLSXDocument, path: String) throws {
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
    static func validate(_ streams: [XLSXRowStream], of document: XLSXDocument, path: String) throws {
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

    private static func validate(
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
    static func sheetNameProblem(_ name: String) -> String? {
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

    private static func validateDate(_ date: XLSXDateTime, sheet: String, row: Int, column: Int, path: String) throws {
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

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // MARK: - Files

    /// Creates an empty `.name.tmp-PID-XXXXXXXX` file with mode 0640 next to `path`.
    ///
    /// Creating it here (exclusively, not following an existing name) rather than letting
    /// libxlsxwriter do it at close time turns a bad directory into an early, precise error.
    private static func createTemporaryFile(for path: String) throws -> String {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        var lastError = ""
        for _ in 0..<8 {
            let suffix = String(UInt32.random(in: .min ... .max), radix: 16)
            let temporary = (directory as NSString).appendingPathComponent(".\(name).tmp-\(getpid())-\(suffix)")
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
            if descriptor >= 0 {
                // The umask may have cleared bits of the requested mode.
                let modeSet = fchmod(descriptor, fileMode) == 0
                let modeError = errnoText()
                close(descriptor)
                guard modeSet else {
                    unlink(temporary)
                    throw XLSXError.fileSystem(path: path, operation: "setting the file mode", reason: modeError)
                }
                return temporary
            }
            let code = errno
            lastError = String(cString: strerror(code))
            if code != EEXIST { break }
        }
        throw XLSXError.fileSystem(path: path, operation: "creating a temporary file", reason: lastError)
    }

    /// Flushes the written file to disk before it is renamed into place.
    private static func syncFile(_ file: String, displayPath: String) throws {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw XLSXError.fileSystem(path: displayPath, operation: "opening the written file", reason: errnoText())
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw XLSXError.fileSystem(path: displayPath, operation: "syncing the written file", reason: errnoText())
        }
    }

    /// Makes the rename durable; best effort, as the file is already complete and in place.
    private static func syncDirectory(of path: String) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
