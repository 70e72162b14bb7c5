import Foundation
import ReconFindings
import ReconModel
import ReconStorage

extension XLSXWriter {
    /// The width of `text` in Excel character units: its longest line, East Asian wide
    /// characters counting two.
    package static func displayWidth(_ text: String) -> Int {
        // Most cells are one line of ASCII: one column per byte (every byte is a character; no
        // line breaks, 0x0A–0x0D).
        var text = text
        let plain = text.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 && !(0x0A...0x0D).contains($0) } }
        if plain { return text.utf8.count }
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { line in
            line.reduce(0) { total, character in
                total + (character.unicodeScalars.first.map(isWide) == true ? 2 : 1)
            }
        }.max() ?? 0
    }

    package static func isWide(_ scalar: Unicode.Scalar) -> Bool {
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
    package static func columnWidths(of sheet: XLSXSheet) -> [Double] {
        var widths = ColumnWidths(given: sheet.columnWidths)
        for (rowIndex, row) in sheet.rows.enumerated() { widths.add(row, isHeader: rowIndex == sheet.headerRow) }
        return widths.widths()
    }

    /// The longest rendered content of each column, gathered row by row.
    ///
    /// A column stops being measured once its width is known: it has a given width, or its
    /// content already reaches the widest computed width. A long findings sheet then renders the
    /// text of few of its cells a second time.
    package struct ColumnWidths {
        private let given: [Double?]
        private var longest: [Int] = []
        /// Content this long (or longer) is clamped to the widest computed width.
        private static let clamped = Int(computedWidthRange.upperBound) - 2

        package init(given: [Double?] = []) {
            self.given = given
        }

        /// Counts `row` (a title row does not count: it overflows into the empty cells beside it).
        package mutating func add(_ row: XLSXRow, isHeader: Bool) {
            guard row.style != .title else { return }
            // The autofilter button takes about two characters of the header cell.
            let extra = isHeader ? 2 : 0
            if longest.count < row.cells.count {
                longest += Array(repeating: 0, count: row.cells.count - longest.count)
            }
            for (column, cell) in row.cells.enumerated() {
                guard longest[column] < Self.clamped, column >= given.count || given[column] == nil else { continue }
                longest[column] = max(longest[column], XLSXWriter.displayWidth(XLSXWriter.renderedText(cell)) + extra)
            }
        }

        /// The width of every column that has content or a given width.
        package func widths() -> [Double] {
            (0..<max(given.count, longest.count)).map { column in
                if column < given.count, let width = given[column] { return width }
                let computed = Double((column < longest.count ? longest[column] : 0) + 2)
                return min(max(computed, computedWidthRange.lowerBound), computedWidthRange.upperBound)
            }
        }
    }
}
