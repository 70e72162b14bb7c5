import ReconFindings
import ReconModel
import ReconStorage

/// Makes a document writable whatever values it carries: a cell the file format cannot hold is
/// written as text instead, and each such change is a warning for `run.json`.
///
/// A value that got into the store can never stop a report (CONTRACT §1.6): a date before 1900 or
/// after 9999 (Excel's range), an amount beyond Excel's 15 significant digits, a text longer
/// than Excel's 32,767 characters a cell, or more rows than a sheet holds.
extension XLSXDocument {
    /// The longest text Excel keeps in one cell.
    package static let maxCellText = 32_767

    /// The document with every unstorable cell replaced, and one warning per replacement
    /// (`sheet 'Pending' cell E2: 0001-01-01 00:00:00 is not a date Excel can store; written as text`).
    public func storable() -> (document: XLSXDocument, warnings: [XLSXWarning]) {
        var warnings: [XLSXWarning] = []
        var sheets = sheets
        for s in sheets.indices {
            let name = sheets[s].name
            let maxRows = XLSXWorkbook.maxRow + 1
            if sheets[s].rows.count > maxRows, sheets[s].charts.isEmpty {
                let dropped = sheets[s].rows.count - (maxRows - 1)
                sheets[s].rows.removeLast(dropped)
                sheets[s].rows.append(XLSXRow([.text("… \(dropped) more rows not shown (a sheet holds \(maxRows))")]))
                warnings.append(XLSXWarning(sheet: name, text: "\(dropped) rows beyond Excel's \(maxRows) not shown"))
            }
            for r in sheets[s].rows.indices {
                for c in sheets[s].rows[r].cells.indices {
                    let cell = sheets[s].rows[r].cells[c]
                    guard let (text, problem) = Self.unstorable(cell) else { continue }
                    sheets[s].rows[r].cells[c] = .text(text)
                    let reference = XLSXWorkbook.cellName(row: r, column: c)
                    warnings.append(XLSXWarning(sheet: name, cell: reference, text: "\(problem); written as text"))
                }
            }
        }
        return (XLSXDocument(sheets: sheets), warnings)
    }

    /// The text to write instead of `cell` and why, or nil when the cell is storable as it is.
    package static func unstorable(_ cell: XLSXCell) -> (String, String)? {
        switch cell {
        case .date(let date):
            guard !excelCanStore(date) else { return nil }
            let text = Self.text(date, time: false)
            return (text, "\(text) is not a date Excel can store (1900-01-01...9999-12-31)")
        case .dateTime(let date):
            guard !excelCanStore(date) else { return nil }
            let text = Self.text(date, time: true)
            return (text, "\(text) is not a date Excel can store (1900-01-01...9999-12-31)")
        case .money(let money), .amount(let money):
            if Money.isSaturated(money.milliunits) {
                return ("overflow \(money.currency)", "a sum in \(money.currency) overflows the money type")
            }
            guard money.milliunits.magnitude > UInt64(XLSXWriter.maxExactInteger) else { return nil }
            let text = money.formatted + " " + money.currency
            return (text, "amount \(text) has more digits than Excel keeps")
        case .integer(let value):
            guard Money.isSaturated(value) else { return nil }
            return ("overflow", "a count overflows")
        case .text(let text):
            guard text.utf8.count > maxCellText else { return nil }
            var cut = ""
            for character in text {
                guard cut.utf8.count + character.utf8.count <= maxCellText - 3 else { break }
                cut.append(character)
            }
            return (cut + "…", "a text of \(text.utf8.count) bytes is longer than an Excel cell holds; cut")
        case .empty, .percent:
            return nil
        }
    }

    package static func excelCanStore(_ date: XLSXDateTime) -> Bool {
        guard (1900...9999).contains(date.year), (1...12).contains(date.month) else { return false }
        return (1...Timestamp.daysIn(month: date.month, year: date.year)).contains(date.day)
            && (0...23).contains(date.hour) && (0...59).contains(date.minute) && (0...59).contains(date.second)
    }

    package static func text(_ date: XLSXDateTime, time: Bool) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value.magnitude)
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var text = "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))"
        if time { text += " \(pad(date.hour, 2)):\(pad(date.minute, 2)):\(pad(date.second, 2))" }
        return text
    }
}
