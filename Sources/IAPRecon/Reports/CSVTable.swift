import Foundation

/// A CSV cell: text is protected against formula injection, numbers are written as they are.
public enum CSVCell: Sendable, Hashable {
    case text(String)
    /// A value already formatted as a number (`-4.99`, `12`): never prefixed.
    case number(String)
}

/// An RFC 4180 table: a header row and data rows, CRLF line breaks.
public struct CSVTable: Sendable, Hashable {
    public var header: [String]
    public var rows: [[CSVCell]]

    public init(header: [String], rows: [[CSVCell]] = []) {
        self.header = header
        self.rows = rows
    }

    /// The table as UTF-8 bytes.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 * (rows.count + 1))
        append(header.map { CSVCell.text($0) }, to: &out)
        for row in rows { append(row, to: &out) }
        return out
    }

    private func append(_ row: [CSVCell], to out: inout [UInt8]) {
        for (index, cell) in row.enumerated() {
            if index > 0 { out.append(0x2C) }
            switch cell {
            case .number(let text): out.append(contentsOf: Self.quoted(text).utf8)
            case .text(let text): out.append(contentsOf: Self.quoted(Self.neutralized(text)).utf8)
            }
        }
        out.append(0x0D)
        out.append(0x0A)
    }

    /// Prefixes text that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR)
    /// with a single quote.
    public static func neutralized(_ text: String) -> String {
        guard let first = text.unicodeScalars.first else { return text }
        switch first {
        case "=", "+", "-", "@", "\t", "\r": return "'" + text
        default: return text
        }
    }

    /// Quotes a field when it holds a comma, quote, line break or edge blanks.
    static func quoted(_ text: String) -> String {
        let needs =
            text.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
            || text.first == " " || text.last == " "
        guard needs else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
