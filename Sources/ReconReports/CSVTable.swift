import Foundation
import ReconFindings
import ReconModel
import ReconStorage

/// A CSV cell: text is protected against formula injection, numbers are written as they are.
public enum CSVCell: Sendable, Hashable {
    case text(String)
    /// A value already formatted as a number (`-4.99`, `12`): never prefixed.
    case number(String)

    /// An amount of `milli` thousandths of `currency`, with the currency's own decimals.
    static func money(_ milli: Int64, _ currency: String) -> CSVCell {
        .number(Money(milliunits: milli, currency: currency).formatted)
    }
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
        Self.append(header.map { CSVCell.text($0) }, to: &out)
        for row in rows { Self.append(row, to: &out) }
        return out
    }

    /// Appends one row and its CRLF.
    package static func append(_ row: [CSVCell], to out: inout [UInt8]) {
        for (index, cell) in row.enumerated() {
            if index > 0 { out.append(0x2C) }
            switch cell {
            case .number(let text): Self.appendField(text, to: &out)
            case .text(let text): Self.appendField(Self.neutralized(text), to: &out)
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

    /// Appends a field, quoted when it holds a comma, quote, line break or edge blanks (a quote
    /// inside is doubled).
    package static func appendField(_ text: String, to out: inout [UInt8]) {
        // A plain space only: a space that a combining mark follows is another character.
        let edgeBlank = (text.utf8.first == 0x20 && text.first == " ") || (text.utf8.last == 0x20 && text.last == " ")
        var text = text
        text.withUTF8 { bytes in
            // Scanned as contiguous bytes: this runs for every field of every row.
            let needs = edgeBlank || bytes.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
            guard needs else {
                out.append(contentsOf: bytes)
                return
            }
            out.append(0x22)
            for byte in bytes {
                out.append(byte)
                if byte == 0x22 { out.append(0x22) }
            }
            out.append(0x22)
        }
    }
}
