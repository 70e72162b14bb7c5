import ReconModel

/// Rows for `COPY table (columns) FROM STDIN` in PostgreSQL's text format: a line per row, values separated by tabs,
/// `\N` for NULL, and a backslash, tab, line feed or carriage return in a text escaped
/// (https://www.postgresql.org/docs/current/sql-copy.html, "Text Format").
///
/// A batch of a plain INSERT's rows goes this way (``RowInsert/copyColumns``): one statement the server
/// neither parses per row nor plans, and values written as bytes here rather than bound one by one. Row-level
/// triggers and constraints apply to copied rows as to inserted ones, so the rows do what the INSERTs would.
package struct PostgresCopyRows {
    /// The table, as the INSERT named it (`pg_temp.t` for a temporary one).
    package let table: String
    package let columns: [String]
    package private(set) var data: [UInt8] = []
    package private(set) var rows = 0

    /// The data size at which a batch goes: a few megabytes per statement.
    static let fullSize = 4 << 20

    package init(table: String, columns: [String]) {
        self.table = table
        self.columns = columns
        data.reserveCapacity(1 << 16)
    }

    /// What the statement would read as SQL: for traces and error messages.
    package var sql: String { "COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN" }

    var isFull: Bool { data.count >= Self.fullSize }

    /// Appends one row of `values`, one per column.
    package mutating func append(_ values: ArraySlice<SQLValue>) {
        var first = true
        for value in values {
            if !first { data.append(0x09) }
            first = false
            switch value {
            case .null:
                data.append(0x5C)
                data.append(0x4E)
            case .integer(let number):
                data.append(contentsOf: String(number).utf8)
            case .text(var text):
                text.withUTF8 { bytes in
                    if !bytes.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
                        data.append(contentsOf: bytes)
                        return
                    }
                    for byte in bytes {
                        switch byte {
                        case 0x5C: data.append(0x5C); data.append(0x5C)
                        case 0x09: data.append(0x5C); data.append(0x74)
                        case 0x0A: data.append(0x5C); data.append(0x6E)
                        case 0x0D: data.append(0x5C); data.append(0x72)
                        default: data.append(byte)
                        }
                    }
                }
            }
        }
        data.append(0x0A)
        rows += 1
    }
}
