import ReconFindings
import ReconModel
import ReconStorage

/// A workbook described as plain values, so report builders never see the C library.
///
/// ``XLSXWriter`` (the only code that imports `CXlsxWriter`) turns it into a file.
public struct XLSXDocument: Sendable, Hashable {
    public var sheets: [XLSXSheet]

    public init(sheets: [XLSXSheet]) {
        self.sheets = sheets
    }

    /// The names of the sheets a chart reads (categories or values).
    public var chartSources: Set<String> {
        Set(sheets.flatMap(\.charts).flatMap { [$0.categories] + $0.series }.map(\.sheet))
    }
}

/// A calendar date and wall-clock time, already in the report's time zone.
public struct XLSXDateTime: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }
}

/// One typed cell.
///
/// Numbers are written as numeric cells, dates as date cells.
public enum XLSXCell: Sendable, Hashable {
    case empty
    case text(String)
    case integer(Int64)
    /// A money amount: numeric cell with a number format of the currency's own decimals and
    /// its code (e.g. `#,##0.00 "USD"`, `#,##0 "JPY"`, `#,##0.000 "KWD"`).
    case money(Money)
    /// A money amount beside a column that names its currency: the currency's own decimals,
    /// no code (so the row shows the currency once).
    case amount(Money)
    /// A calendar date, formatted `yyyy-mm-dd`.
    case date(XLSXDateTime)
    /// A date and time, formatted `yyyy-mm-dd hh:mm:ss`.
    case dateTime(XLSXDateTime)
    /// A ratio in parts per million, shown as a percentage (`700000` → `70%`).
    case percent(ppm: Int64)
}

/// How a row looks.
public enum XLSXRowStyle: Sendable, Hashable {
    case normal
    /// Bold with a bottom border: the header of a table.
    case header
    /// Larger bold text: a section title.
    case title
    /// Bold: a totals row.
    case total
}

/// One row of a sheet.
public struct XLSXRow: Sendable, Hashable {
    public var cells: [XLSXCell]
    public var style: XLSXRowStyle

    public init(_ cells: [XLSXCell], style: XLSXRowStyle = .normal) {
        self.cells = cells
        self.style = style
    }
}

/// A line or column chart whose data are cells of a sheet in the same document.
public struct XLSXChart: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case line, column
        /// A line over time: the categories are date cells placed on a date scale (days
        /// proportionally spaced, labelled `yyyy-mm-dd`), one value scale for its series.
        case dateLine
    }

    /// A series: its name and the rows/column (zero-based, inclusive) of its values.
    public struct Series: Sendable, Hashable {
        public var name: String
        public var sheet: String
        public var firstRow: Int
        public var lastRow: Int
        public var column: Int

        public init(name: String, sheet: String, firstRow: Int, lastRow: Int, column: Int) {
            self.name = name
            self.sheet = sheet
            self.firstRow = firstRow
            self.lastRow = lastRow
            self.column = column
        }
    }

    public var kind: Kind
    public var title: String
    /// Category labels (x axis): same shape as a series.
    public var categories: Series
    public var series: [Series]
    /// Top-left cell the chart is anchored at (zero-based).
    public var anchorRow: Int
    public var anchorColumn: Int
    /// Number format of the value axis (e.g.
    ///
    /// a currency's ``XLSXWriter/amountFormat(_:)``).
    public var valueFormat: String?
    /// The first and last day of a ``Kind/dateLine`` chart's date scale.
    public var dateRange: (first: XLSXDateTime, last: XLSXDateTime)? {
        get { dateBounds.map { ($0[0], $0[1]) } }
        set { dateBounds = newValue.map { [$0.first, $0.last] } }
    }
    private var dateBounds: [XLSXDateTime]?

    public init(
        kind: Kind, title: String, categories: Series, series: [Series], anchorRow: Int, anchorColumn: Int,
        valueFormat: String? = nil, dateRange: (first: XLSXDateTime, last: XLSXDateTime)? = nil
    ) {
        self.kind = kind
        self.title = title
        self.categories = categories
        self.series = series
        self.anchorRow = anchorRow
        self.anchorColumn = anchorColumn
        self.valueFormat = valueFormat
        self.dateBounds = dateRange.map { [$0.first, $0.last] }
    }
}

/// One worksheet: rows, column widths, an optional frozen header with an autofilter, charts.
public struct XLSXSheet: Sendable, Hashable {
    public var name: String
    public var rows: [XLSXRow]
    /// Column widths in Excel character units; a missing or nil entry is sized from content.
    public var columnWidths: [Double?]
    /// Zero-based index of the table header row: it is frozen (rows above and it stay visible) and the autofilter
    /// spans from it to the last row over all its columns.
    ///
    /// Nil: neither.
    public var headerRow: Int?
    public var charts: [XLSXChart]
    // Every sheet prints landscape, one page wide, repeating its header row on each page.

    public init(
        name: String, rows: [XLSXRow], columnWidths: [Double?] = [], headerRow: Int? = nil,
        charts: [XLSXChart] = []
    ) {
        self.name = name
        self.rows = rows
        self.columnWidths = columnWidths
        self.headerRow = headerRow
        self.charts = charts
    }
}

/// Rows appended to a sheet after its own, read as they are written and never all in memory: a long table.
public struct XLSXRowStream {
    /// The sheet the rows go to; no chart may read it.
    public var sheet: String
    /// Calls its argument with each row, in order.
    public var rows: ((XLSXRow) throws -> Void) throws -> Void

    public init(sheet: String, rows: @escaping ((XLSXRow) throws -> Void) throws -> Void) {
        self.sheet = sheet
        self.rows = rows
    }
}

/// A value written other than as given (as text, or left out), for `run.json`.
public struct XLSXWarning: Sendable, Hashable {
    /// The sheet it is on.
    public var sheet: String
    /// The cell (`E2`); nil for the sheet as a whole.
    public var cell: String?
    /// What happened (`… is not a date Excel can store …; written as text`).
    public var text: String

    public init(sheet: String, cell: String? = nil, text: String) {
        self.sheet = sheet
        self.cell = cell
        self.text = text
    }

    /// The line for `run.json`: `reconciliation.xlsx sheet 'Pending' cell E2: …`.
    public func message(fileName: String) -> String {
        "\(fileName) sheet '\(sheet)'" + (cell.map { " cell \($0)" } ?? "") + ": " + text
    }
}
