import CXlsxWriter
import Foundation
import ReconFindings
import ReconModel
import ReconStorage

/// The owner of one libxlsxwriter workbook: worksheets, cached cell formats and charts.
///
/// Every C call's `lxw_error` becomes an ``XLSXError`` naming ``displayPath`` and the sheet or
/// cell. ``close()`` calls `workbook_close` (which writes the file and always frees the
/// workbook) exactly once; a workbook dropped without ``close()`` is freed with
/// `lxw_workbook_free` and writes nothing. Formats, worksheets and charts are owned by the
/// workbook and live exactly as long as it. Not thread-safe: use it from one task only.
package final class XLSXWorkbook {
    /// A worksheet of this workbook; only usable through the workbook that created it.
    package struct Worksheet {
        fileprivate let handle: UnsafeMutablePointer<lxw_worksheet>
        fileprivate let owner: ObjectIdentifier
        /// The sheet name, for messages.
        package let name: String
    }

    /// How a cell looks: its row's style plus an optional Excel number format code.
    package struct CellFormat: Hashable {
        package var style: XLSXRowStyle
        package var numberFormat: String?

        package init(style: XLSXRowStyle, numberFormat: String? = nil) {
            self.style = style
            self.numberFormat = numberFormat
        }
    }

    /// The path shown in error messages (the final report path, not the temporary file).
    package let displayPath: String
    private var handle: UnsafeMutablePointer<lxw_workbook>?
    private var formats: [CellFormat: UnsafeMutablePointer<lxw_format>] = [:]

    /// The light blue fill of header rows (Excel's "Blue, Accent 1, Lighter 80%").
    package static let headerFill: lxw_color_t = 0xD9E1F2
    /// The font size of title rows, in points (the default is 11).
    package static let titleFontSize: Double = 14

    /// Creates an empty workbook that ``close()`` writes to `filePath`.
    ///
    /// - Parameters:
    ///   - filePath: Where libxlsxwriter writes the file when the workbook is closed.
    ///   - displayPath: The path named in error messages.
    /// - Throws: ``XLSXError/library(path:location:code:message:)`` when libxlsxwriter cannot
    ///   allocate the workbook.
    package init(filePath: String, displayPath: String) throws {
        self.displayPath = displayPath
        let created = XLSXWorkbook.withSafeCString(filePath) { workbook_new($0) }
        guard let created else {
            throw XLSXError.library(
                path: displayPath, location: "creating the workbook",
                code: LXW_ERROR_MEMORY_MALLOC_FAILED.rawValue,
                message: XLSXWorkbook.message(for: LXW_ERROR_MEMORY_MALLOC_FAILED))
        }
        handle = created
    }

    deinit {
        // Never closed (an error happened first): free without writing a file.
        if let handle { lxw_workbook_free(handle) }
    }

    // MARK: - Workbook

    /// Sets the creation time stored in `docProps/core.xml`, so identical data give identical
    /// files.
    ///
    /// - Parameter epochSeconds: Seconds since 1970-01-01T00:00:00Z. libxlsxwriter treats 0 as
    ///   "now".
    package func setCreationTime(epochSeconds: Int64) throws {
        let workbook = try openHandle()
        guard let seconds = time_t(exactly: epochSeconds) else {
            throw XLSXError.invalidDocument(
                path: displayPath, location: "document properties",
                reason: "creation time \(epochSeconds) is out of range")
        }
        var properties = lxw_doc_properties()
        properties.created = seconds
        // libxlsxwriter copies the properties; `properties` may go away after the call.
        try check(workbook_set_properties(workbook, &properties), "document properties")
    }

    /// Adds a worksheet; the name is checked by libxlsxwriter (`workbook_validate_sheet_name`).
    ///
    /// - Parameter rowByRow: libxlsxwriter's constant-memory mode for this sheet only: each row
    ///   goes to a temporary file once a later row is written (rows must come in order; text is
    ///   written inline, not as shared strings). Its cells can then not feed a chart's cached
    ///   values. libxlsxwriter reads the mode from the workbook's options when a sheet is added.
    /// - Throws: ``XLSXError/invalidSheetName(path:name:reason:)`` for a name libxlsxwriter
    ///   rejects, ``XLSXError/library(path:location:code:message:)`` when it cannot allocate.
    package func addWorksheet(named name: String, rowByRow: Bool = false) throws -> Worksheet {
        let workbook = try openHandle()
        workbook.pointee.options.constant_memory = rowByRow ? 1 : 0
        let code = XLSXWorkbook.withSafeCString(name) { workbook_validate_sheet_name(workbook, $0) }
        guard code == LXW_NO_ERROR else {
            throw XLSXError.invalidSheetName(
                path: displayPath, name: name, reason: XLSXWorkbook.message(for: code))
        }
        let sheet = XLSXWorkbook.withSafeCString(name) { workbook_add_worksheet(workbook, $0) }
        guard let sheet else {
            throw XLSXError.library(
                path: displayPath, location: "sheet '\(name)'",
                code: LXW_ERROR_MEMORY_MALLOC_FAILED.rawValue,
                message: XLSXWorkbook.message(for: LXW_ERROR_MEMORY_MALLOC_FAILED))
        }
        return Worksheet(handle: sheet, owner: ObjectIdentifier(self), name: name)
    }

    /// Writes the file and frees the workbook (`workbook_close`, exactly once).
    ///
    /// - Throws: ``XLSXError/library(path:location:code:message:)`` when the file could not be
    ///   assembled or written; the workbook is freed either way.
    package func close() throws {
        let workbook = try openHandle()
        handle = nil
        formats.removeAll()
        try check(workbook_close(workbook), "saving the workbook")
    }

    // MARK: - Cells

    /// Writes a text cell: a shared string, never interpreted as a formula.
    ///
    /// NUL characters are dropped.
    package func writeString(_ text: String, row: Int, column: Int, in sheet: Worksheet, format: CellFormat) throws {
        let (worksheet, r, c) = try cellTarget(sheet, row, column)
        let cellFormat = try self.format(format)
        let code = XLSXWorkbook.withSafeCString(text) { worksheet_write_string(worksheet, r, c, $0, cellFormat) }
        try check(code, XLSXWorkbook.location(sheet, row, column))
    }

    /// Writes a numeric cell.
    package func writeNumber(_ value: Double, row: Int, column: Int, in sheet: Worksheet, format: CellFormat) throws {
        let (worksheet, r, c) = try cellTarget(sheet, row, column)
        guard value.isFinite else {
            throw XLSXError.invalidDocument(
                path: displayPath, location: XLSXWorkbook.location(sheet, row, column),
                reason: "number \(value) is not finite")
        }
        let cellFormat = try self.format(format)
        try check(worksheet_write_number(worksheet, r, c, value, cellFormat), XLSXWorkbook.location(sheet, row, column))
    }

    /// Writes a date cell (an Excel serial number, shown through `format`'s number format).
    package func writeDateTime(
        _ value: XLSXDateTime, row: Int, column: Int, in sheet: Worksheet, format: CellFormat
    ) throws {
        let (worksheet, r, c) = try cellTarget(sheet, row, column)
        guard let year = Int32(exactly: value.year), let month = Int32(exactly: value.month),
            let day = Int32(exactly: value.day), let hour = Int32(exactly: value.hour),
            let minute = Int32(exactly: value.minute)
        else {
            throw XLSXError.invalidDocument(
                path: displayPath, location: XLSXWorkbook.location(sheet, row, column),
                reason: "date out of range")
        }
        var datetime = lxw_datetime(
            year: year, month: month, day: day, hour: hour, min: minute, sec: Double(value.second))
        let cellFormat = try self.format(format)
        try check(
            worksheet_write_datetime(worksheet, r, c, &datetime, cellFormat),
            XLSXWorkbook.location(sheet, row, column))
    }

    /// Writes an empty cell that only carries a format (a no-op for the default format).
    package func writeBlank(row: Int, column: Int, in sheet: Worksheet, format: CellFormat) throws {
        let (worksheet, r, c) = try cellTarget(sheet, row, column)
        let cellFormat = try self.format(format)
        try check(worksheet_write_blank(worksheet, r, c, cellFormat), XLSXWorkbook.location(sheet, row, column))
    }

    // MARK: - Layout

    /// Sets the width of one column, in Excel character units.
    package func setColumnWidth(_ width: Double, column: Int, in sheet: Worksheet) throws {
        let worksheet = try own(sheet)
        let location = "sheet '\(sheet.name)' column \(XLSXWorkbook.columnName(column))"
        guard let c = lxw_col_t(exactly: column) else {
            throw XLSXError.invalidDocument(path: displayPath, location: location, reason: "column out of range")
        }
        try check(worksheet_set_column(worksheet, c, c, width, nil), location)
    }

    /// Freezes the rows above `row` and the columns left of `column`.
    package func freezePanes(row: Int, column: Int, in sheet: Worksheet) throws {
        let worksheet = try own(sheet)
        guard let r = lxw_row_t(exactly: row), let c = lxw_col_t(exactly: column),
            row <= XLSXWorkbook.maxRow, column <= XLSXWorkbook.maxColumn
        else {
            throw XLSXError.invalidDocument(
                path: displayPath, location: XLSXWorkbook.location(sheet, row, column),
                reason: "frozen pane out of range")
        }
        // `worksheet_freeze_panes` returns nothing: the range check above is all there is.
        worksheet_freeze_panes(worksheet, r, c)
    }

    /// Adds an autofilter over the inclusive cell range.
    package func autofilter(firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int, in sheet: Worksheet) throws
    {
        let worksheet = try own(sheet)
        let location =
            "sheet '\(sheet.name)' autofilter \(XLSXWorkbook.cellName(row: firstRow, column: firstColumn))"
            + ":\(XLSXWorkbook.cellName(row: lastRow, column: lastColumn))"
        guard let r1 = lxw_row_t(exactly: firstRow), let c1 = lxw_col_t(exactly: firstColumn),
            let r2 = lxw_row_t(exactly: lastRow), let c2 = lxw_col_t(exactly: lastColumn)
        else {
            throw XLSXError.invalidDocument(path: displayPath, location: location, reason: "range out of range")
        }
        try check(worksheet_autofilter(worksheet, r1, c1, r2, c2), location)
    }

    // MARK: - Charts

    /// Creates a line or column chart over ranges of this workbook and anchors it in `sheet`.
    ///
    /// Literal titles and series names that start with `=` get a leading space, because
    /// libxlsxwriter would read them as formulas.
    package func insertChart(_ chart: XLSXChart, into sheet: Worksheet) throws {
        let workbook = try openHandle()
        let worksheet = try own(sheet)
        let location = "sheet '\(sheet.name)' chart '\(chart.title)'"
        let type: lxw_chart_type
        switch chart.kind {
        case .line: type = LXW_CHART_LINE
        case .column: type = LXW_CHART_COLUMN
        // libxlsxwriter 1.1.4 writes no date axis (`c:dateAx`): a scatter chart's x axis is a
        // value axis, which spaces date serials by time and labels them with a date format.
        case .dateLine: type = LXW_CHART_SCATTER_STRAIGHT_WITH_MARKERS
        }
        guard let handle = workbook_add_chart(workbook, UInt8(type.rawValue)) else {
            throw XLSXError.library(
                path: displayPath, location: location, code: LXW_ERROR_MEMORY_MALLOC_FAILED.rawValue,
                message: XLSXWorkbook.message(for: LXW_ERROR_MEMORY_MALLOC_FAILED))
        }
        // From here the chart belongs to the workbook, inserted or not.
        if !chart.title.isEmpty {
            XLSXWorkbook.withSafeCString(XLSXWorkbook.literalName(chart.title)) { chart_title_set_name(handle, $0) }
        }
        for series in chart.series {
            guard let added = chart_add_series(handle, nil, nil) else {
                throw XLSXError.library(
                    path: displayPath, location: "\(location) series '\(series.name)'",
                    code: LXW_ERROR_MEMORY_MALLOC_FAILED.rawValue,
                    message: XLSXWorkbook.message(for: LXW_ERROR_MEMORY_MALLOC_FAILED))
            }
            let categories = try chartRange(chart.categories, location: "\(location) categories")
            let values = try chartRange(series, location: "\(location) series '\(series.name)'")
            XLSXWorkbook.withSafeCString(chart.categories.sheet) {
                chart_series_set_categories(
                    added, $0, categories.first, categories.column, categories.last, categories.column)
            }
            XLSXWorkbook.withSafeCString(series.sheet) {
                chart_series_set_values(added, $0, values.first, values.column, values.last, values.column)
            }
            if !series.name.isEmpty {
                XLSXWorkbook.withSafeCString(XLSXWorkbook.literalName(series.name)) {
                    chart_series_set_name(added, $0)
                }
            }
        }
        if let format = chart.valueFormat, let axis = handle.pointee.y_axis {
            XLSXWorkbook.withSafeCString(format) { chart_axis_set_num_format(axis, $0) }
        }
        if chart.kind == .dateLine, let axis = handle.pointee.x_axis {
            chart_axis_set_num_format(axis, "yyyy-mm-dd")
            if let (first, last) = chart.dateRange {
                let from = XLSXWorkbook.serial(first)
                let to = max(XLSXWorkbook.serial(last), from + 1)
                chart_axis_set_min(axis, from)
                chart_axis_set_max(axis, to)
                // About six labels, on whole days.
                chart_axis_set_major_unit(axis, max(1, ((to - from) / 6).rounded(.up)))
            }
        }
        if chart.series.count == 1 {
            chart_legend_set_position(handle, UInt8(LXW_CHART_LEGEND_NONE.rawValue))
        }
        guard let r = lxw_row_t(exactly: chart.anchorRow), let c = lxw_col_t(exactly: chart.anchorColumn) else {
            throw XLSXError.invalidDocument(path: displayPath, location: location, reason: "anchor out of range")
        }
        try check(worksheet_insert_chart(worksheet, r, c, handle), location)
    }

    /// The Excel serial number of a calendar day (days since 1899-12-30).
    package static func serial(_ date: XLSXDateTime) -> Double {
        Double(Timestamp.daysFromCivil(year: date.year, month: date.month, day: date.day) + 25_569)
    }

    // MARK: - Print layout

    /// Landscape, one page wide (as many pages tall as needed), repeating `repeatingRow` (the
    /// table header) at the top of every printed page.
    package func setPrintLayout(repeatingRow: Int?, in sheet: Worksheet) throws {
        let worksheet = try own(sheet)
        worksheet_set_landscape(worksheet)
        worksheet_fit_to_pages(worksheet, 1, 0)
        if let repeatingRow {
            guard let row = lxw_row_t(exactly: repeatingRow) else {
                throw XLSXError.invalidDocument(
                    path: displayPath, location: "sheet '\(sheet.name)' print titles", reason: "row out of range")
            }
            try check(worksheet_repeat_rows(worksheet, row, row), "sheet '\(sheet.name)' print titles")
        }
    }

    // MARK: - Helpers

    /// The largest zero-based row index Excel allows (1,048,576 rows).
    package static let maxRow = 1_048_575
    /// The largest zero-based column index Excel allows (16,384 columns, `XFD`).
    package static let maxColumn = 16_383

    /// The A1-style name of a zero-based cell (`row: 0, column: 27` → `AB1`).
    package static func cellName(row: Int, column: Int) -> String {
        "\(columnName(column))\(row + 1)"
    }

    /// The letters of a zero-based column (`0` → `A`, `26` → `AA`).
    package static func columnName(_ column: Int) -> String {
        guard column >= 0 else { return "?" }
        var letters: [Character] = []
        var n = column + 1
        while n > 0 {
            let remainder = (n - 1) % 26
            letters.append(Character(UnicodeScalar(UInt8(65 + remainder))))
            n = (n - 1) / 26
        }
        return String(letters.reversed())
    }

    /// `sheet 'Name' cell B3`, for messages.
    private static func location(_ sheet: Worksheet, _ row: Int, _ column: Int) -> String {
        "sheet '\(sheet.name)' cell \(cellName(row: row, column: column))"
    }

    /// Calls `body` with a NUL-terminated copy of `text` from which embedded NULs are removed
    /// (a C string would silently end at the first one).
    package static func withSafeCString<R>(_ text: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try text.withCString { cString in
            // The C string is as long as the text unless a NUL ends it early (`strlen` scans it fast).
            if strlen(cString) == text.utf8.count { return try body(cString) }
            let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\0" }))
            return try cleaned.withCString(body)
        }
    }

    /// `lxw_strerror`'s text for `code`.
    package static func message(for code: lxw_error) -> String {
        guard let text = lxw_strerror(code) else { return "unknown error" }
        return String(cString: text)
    }

    /// A chart title or series name that libxlsxwriter takes literally (not as a formula).
    private static func literalName(_ name: String) -> String {
        name.hasPrefix("=") ? " " + name : name
    }

    private func openHandle() throws -> UnsafeMutablePointer<lxw_workbook> {
        guard let handle else {
            throw XLSXError.invalidDocument(path: displayPath, location: "workbook", reason: "already closed")
        }
        return handle
    }

    private func own(_ sheet: Worksheet) throws -> UnsafeMutablePointer<lxw_worksheet> {
        _ = try openHandle()
        guard sheet.owner == ObjectIdentifier(self) else {
            throw XLSXError.invalidDocument(
                path: displayPath, location: "sheet '\(sheet.name)'", reason: "belongs to another workbook")
        }
        return sheet.handle
    }

    private func cellTarget(
        _ sheet: Worksheet, _ row: Int, _ column: Int
    ) throws -> (UnsafeMutablePointer<lxw_worksheet>, lxw_row_t, lxw_col_t) {
        let worksheet = try own(sheet)
        guard let r = lxw_row_t(exactly: row), let c = lxw_col_t(exactly: column) else {
            throw XLSXError.invalidDocument(
                path: displayPath, location: XLSXWorkbook.location(sheet, row, column),
                reason: "cell out of range")
        }
        return (worksheet, r, c)
    }

    private func chartRange(
        _ series: XLSXChart.Series, location: String
    ) throws -> (first: lxw_row_t, last: lxw_row_t, column: lxw_col_t) {
        guard let first = lxw_row_t(exactly: series.firstRow), let last = lxw_row_t(exactly: series.lastRow),
            let column = lxw_col_t(exactly: series.column)
        else {
            throw XLSXError.invalidDocument(path: displayPath, location: location, reason: "range out of range")
        }
        return (first, last, column)
    }

    /// The cached `lxw_format` for `key` (nil for the default look); created on first use.
    private func format(_ key: CellFormat) throws -> UnsafeMutablePointer<lxw_format>? {
        if key.style == .normal && key.numberFormat == nil { return nil }
        if let cached = formats[key] { return cached }
        let workbook = try openHandle()
        guard let format = workbook_add_format(workbook) else {
            throw XLSXError.library(
                path: displayPath, location: "cell format", code: LXW_ERROR_MEMORY_MALLOC_FAILED.rawValue,
                message: XLSXWorkbook.message(for: LXW_ERROR_MEMORY_MALLOC_FAILED))
        }
        switch key.style {
        case .normal:
            break
        case .header:
            format_set_bold(format)
            format_set_bottom(format, UInt8(LXW_BORDER_THIN.rawValue))
            format_set_pattern(format, UInt8(LXW_PATTERN_SOLID.rawValue))
            format_set_bg_color(format, XLSXWorkbook.headerFill)
        case .title:
            format_set_bold(format)
            format_set_font_size(format, XLSXWorkbook.titleFontSize)
        case .total:
            format_set_bold(format)
        }
        if let numberFormat = key.numberFormat {
            XLSXWorkbook.withSafeCString(numberFormat) { format_set_num_format(format, $0) }
        }
        formats[key] = format
        return format
    }

    private func check(_ code: lxw_error, _ location: @autoclosure () -> String) throws {
        guard code != LXW_NO_ERROR else { return }
        throw XLSXError.library(
            path: displayPath, location: location(), code: code.rawValue, message: XLSXWorkbook.message(for: code))
    }
}

@available(*, unavailable)
extension XLSXWorkbook: Sendable {}

@available(*, unavailable)
extension XLSXWorkbook.Worksheet: Sendable {}
