import Foundation
import ReconFindings
import ReconModel
import ReconStorage

extension XLSXWriter {
    /// The number format of a money cell: the currency's decimals and its code
    /// (`#,##0.00 "USD"`, `#,##0 "JPY"`, `#,##0.000 "KWD"`).
    package static func moneyFormat(_ currency: String) -> String {
        var format = amountFormat(currency)
        // Only letters and digits go inside the quotes, so a stray code cannot break the format.
        let code = String(
            currency.uppercased().unicodeScalars
                .filter { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
                .prefix(8).map(Character.init))
        if !code.isEmpty { format += " \"\(code)\"" }
        return format
    }

    /// The number format of an amount in `currency` without its code: its own decimals (`#,##0.00`, `#,##0` for JPY,
    /// `#,##0.000` for KWD).
    public static func amountFormat(_ currency: String) -> String {
        let decimals = Currency.lookup(currency)?.decimals ?? 2
        return decimals > 0 ? "#,##0." + String(repeating: "0", count: decimals) : "#,##0"
    }

    /// The columns holding a percentage that is not whole (`12.5%`): they get `0.0%`.
    package static func percentColumnsWithDecimals(of sheet: XLSXSheet) -> Set<Int> {
        var columns: Set<Int> = []
        for row in sheet.rows {
            for (column, cell) in row.cells.enumerated() {
                if case .percent(let ppm) = cell, ppm % 10_000 != 0 { columns.insert(column) }
            }
        }
        return columns
    }

    /// The text Excel shows for `cell` (approximately), used to size columns.
    package static func renderedText(_ cell: XLSXCell) -> String {
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
    package static func grouped(_ plain: String) -> String {
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
}
