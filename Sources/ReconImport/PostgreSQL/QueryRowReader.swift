import AppleData
import Foundation
import PostgresNIO
import ReconModel
import ReconStorage

/// Turns one query's rows into the same parsed rows a file's lines become: the columns are the
/// header, each value its exact text (``PostgresCellText``), and ``Importer/judge(kind:source:line:raw:row:syntaxError:seed:)``
/// (or the ledger's fast path, which accepts only what that accepts) decides each row.
///
/// A row's line is its position in the result (the first row is 1); its raw text is the values
/// as one CSV line, as `\copy … CSV` would write them.
package struct QueryRowReader {
    package let kind: InputKind
    /// `postgresql://HOST:PORT/DB transactions-query`.
    package let source: String
    private var layout = FieldLayout(header: [])
    private var seed = RowHash.parseVersion
    private var fast: LedgerFastPath?
    private var started = false
    package private(set) var line = 0
    /// The current row's CSV line, for the fast path.
    private var bytes: [UInt8] = []

    package init(kind: InputKind, source: String) {
        self.kind = kind
        self.source = source
    }

    /// Reads the next row into `sink`.
    package mutating func read(_ row: PostgresRow, into sink: ChunkSink) throws {
        line += 1
        if !started { try start(columns: row.map(\.columnName), sink: sink) }
        if fast != nil, try readPacked(row, into: sink) { return }
        var values: [String] = []
        values.reserveCapacity(layout.names.count)
        var rejection: RowRejection?
        var plain = true
        for cell in row {
            var text = ""
            do throws(RowRejection) {
                text = try PostgresCellText.text(cell) ?? ""
            } catch {
                if Field.byName[cell.columnName.lowercased()] != nil, rejection == nil { rejection = error }
            }
            if plain { plain = Self.isPlain(text) }
            values.append(text)
        }
        var raw = plain ? values.joined(separator: ",") : values.map(Self.csvField).joined(separator: ",")
        if let rejection {
            let id = RowFields(layout: layout, values: values).string(Importer.idField(kind))
            try sink.append(
                .rejected(
                    RejectedRow(
                        kind: kind, source: source, line: line, recordID: id, reason: rejection.reason, raw: raw)))
            return
        }
        if plain, fast != nil {
            let line = self.line
            let packed = raw.withUTF8 { fast?.parse($0, line: line, into: &sink.chunk.bytes) }
            if let packed {
                try sink.append(packed)
                return
            }
        }
        try sink.append(
            Importer.judge(
                kind: kind, source: source, line: line, raw: raw, row: RowFields(layout: layout, values: values),
                syntaxError: nil, seed: seed))
    }

    /// Reads `row` by the ledger's fast path, its line written as bytes (``PostgresCellBytes``):
    /// false when a value is not plain or the fast path declines, and the general way decides.
    ///
    /// The line is the same text the general way's raw line is, so the outcome is the same.
    private mutating func readPacked(_ row: PostgresRow, into sink: ChunkSink) throws -> Bool {
        bytes.removeAll(keepingCapacity: true)
        var first = true
        for cell in row {
            if !first { bytes.append(0x2C) }
            first = false
            guard PostgresCellBytes.append(cell, to: &bytes) else { return false }
        }
        let line = self.line
        let text = bytes
        let packed = text.withUnsafeBufferPointer { fast?.parse($0, line: line, into: &sink.chunk.bytes) }
        guard let packed else { return false }
        try sink.append(packed)
        return true
    }

    /// The layout of the result's columns, and a warning for each column no field has.
    private mutating func start(columns: [String], sink: ChunkSink) throws {
        started = true
        layout = FieldLayout(header: columns)
        seed = RowHash.seed(header: columns.joined(separator: ",").utf8)
        if kind == .transactions { fast = LedgerFastPath(layout: layout, width: columns.count, seed: seed) }
        for warning in UnknownColumns.warnings(header: columns, kind: kind, file: source) {
            try sink.append(.warning(warning))
        }
    }

    /// Whether `text` can stand in a CSV line as it is (printable ASCII, no comma, no quote).
    private static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E && $0 != 0x2C && $0 != 0x22 }
    }

    /// A CSV field, quoted when it must be.
    private static func csvField(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
