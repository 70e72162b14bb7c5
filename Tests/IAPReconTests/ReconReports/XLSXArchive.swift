import Foundation

/// An `.xlsx` file opened as the zip it is (read with `/usr/bin/unzip`), for assertions on its
/// XML parts: cells with their types and number formats, a CSV dump of a sheet.
struct XLSXArchive {
    /// One `<c>` element of a sheet.
    struct Cell: Equatable {
        /// `B3`.
        var reference: String
        /// The `t` attribute: `s` for a shared string, `inlineStr` for text kept in the cell, nil
        /// for a number.
        var type: String?
        /// The `s` attribute: index into `cellXfs`, 0 when absent.
        var style: Int
        /// The text of `<v>` (of `<is>` for an inline string), nil for a blank cell.
        var value: String?
        /// Whether the cell holds a formula (`<f>`).
        var hasFormula: Bool
    }

    /// Why a part could not be read.
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// The `.xlsx` file.
    let path: String

    /// The names of all parts (`xl/workbook.xml`, ...).
    func entryNames() throws -> [String] {
        try unzip(["-Z1", path]).split(separator: "\n").map(String.init)
    }

    /// The text of one part.
    func entry(_ name: String) throws -> String {
        try unzip(["-p", path, name])
    }

    /// The shared strings table, in index order, unescaped; empty when the file has none (every
    /// sheet written row by row keeps its text inline).
    func sharedStrings() throws -> [String] {
        guard try entryNames().contains("xl/sharedStrings.xml") else { return [] }
        let xml = try entry("xl/sharedStrings.xml")
        return xml.matches(of: #/<si>(.*?)</si>/#.dotMatchesNewlines()).map { item in
            // Rich text has several runs; plain strings have one `<t>`.
            item.output.1.matches(of: #/<t(?: [^>]*)?>(.*?)</t>/#.dotMatchesNewlines())
                .map { XLSXArchive.unescape(String($0.output.1)) }.joined()
        }
    }

    /// The cells of `xl/worksheets/sheet<number>.xml`, keyed by reference (`B3`).
    func cells(sheet number: Int) throws -> [String: Cell] {
        let xml = try entry("xl/worksheets/sheet\(number).xml")
        var cells: [String: Cell] = [:]
        for match in xml.matches(of: #/<c r="([A-Z]+[0-9]+)"([^>]*?)(?:/>|>(.*?)</c>)/#.dotMatchesNewlines()) {
            let attributes = String(match.output.2)
            let body = match.output.3.map(String.init) ?? ""
            let type = attributes.firstMatch(of: #/ t="([^"]*)"/#).map { String($0.output.1) }
            let style = attributes.firstMatch(of: #/ s="([0-9]+)"/#).flatMap { Int($0.output.1) } ?? 0
            var value = body.firstMatch(of: #/<v>(.*?)</v>/#).map { XLSXArchive.unescape(String($0.output.1)) }
            if type == "inlineStr" {
                // A sheet written row by row keeps its text in the cell: `<is><t>…</t></is>`.
                value = body.matches(of: #/<t(?: [^>]*)?>(.*?)</t>/#.dotMatchesNewlines())
                    .map { XLSXArchive.unescape(String($0.output.1)) }.joined()
            }
            let reference = String(match.output.1)
            cells[reference] = Cell(
                reference: reference, type: type, style: style, value: value, hasFormula: body.contains("<f"))
        }
        return cells
    }

    /// The text of a text cell, shared or inline; nil for any other cell.
    func text(of cell: Cell, strings: [String]) -> String? {
        switch cell.type {
        case "inlineStr": return cell.value
        case "s": return cell.value.flatMap(Int.init).flatMap { strings.indices.contains($0) ? strings[$0] : nil }
        default: return nil
        }
    }

    /// The number format code of a cell style index (`#,##0.00 "USD"`, `General`, ...).
    func numberFormat(style: Int) throws -> String {
        let styles = try entry("xl/styles.xml")
        guard let cellXfs = styles.firstMatch(of: #/<cellXfs[^>]*>(.*?)</cellXfs>/#.dotMatchesNewlines()) else {
            throw ReadError(description: "styles.xml has no cellXfs")
        }
        let xfs = cellXfs.output.1.matches(of: #/<xf ([^>]*?)/?>/#).map { String($0.output.1) }
        guard xfs.indices.contains(style),
            let id = xfs[style].firstMatch(of: #/numFmtId="([0-9]+)"/#).flatMap({ Int($0.output.1) })
        else { throw ReadError(description: "no xf \(style) with a numFmtId in styles.xml") }
        if let builtIn = XLSXArchive.builtInFormats[id] { return builtIn }
        for match in styles.matches(of: #/<numFmt numFmtId="([0-9]+)" formatCode="([^"]*)"/>/#)
        where Int(match.output.1) == id {
            return XLSXArchive.unescape(String(match.output.2))
        }
        throw ReadError(description: "numFmtId \(id) not defined in styles.xml")
    }

    /// The `<xf>` attributes of a cell style index (fontId, fillId, borderId, ...).
    func cellFormatAttributes(style: Int) throws -> [String: String] {
        let styles = try entry("xl/styles.xml")
        guard let cellXfs = styles.firstMatch(of: #/<cellXfs[^>]*>(.*?)</cellXfs>/#.dotMatchesNewlines()) else {
            throw ReadError(description: "styles.xml has no cellXfs")
        }
        let xfs = cellXfs.output.1.matches(of: #/<xf ([^>]*?)/?>/#).map { String($0.output.1) }
        guard xfs.indices.contains(style) else { throw ReadError(description: "no xf \(style) in styles.xml") }
        var attributes: [String: String] = [:]
        for match in xfs[style].matches(of: #/([A-Za-z]+)="([^"]*)"/#) {
            attributes[String(match.output.1)] = String(match.output.2)
        }
        return attributes
    }

    /// A CSV dump of a sheet for golden comparisons: one line per row up to the last cell, text
    /// as itself, numbers as `value {format}` (no braces for `General`), blanks empty.
    func csv(sheet number: Int) throws -> String {
        let cells = try self.cells(sheet: number)
        let strings = try sharedStrings()
        var rows: [Int: [Int: String]] = [:]
        for cell in cells.values {
            guard let (row, column) = XLSXArchive.coordinates(cell.reference) else { continue }
            var text = ""
            if let value = cell.value {
                if cell.type == "inlineStr" {
                    text = value
                } else if cell.type == "s" {
                    guard let index = Int(value), strings.indices.contains(index) else {
                        throw ReadError(description: "\(cell.reference): bad shared string index \(value)")
                    }
                    text = strings[index]
                } else {
                    let format = try numberFormat(style: cell.style)
                    text = format == "General" ? value : "\(value) {\(format)}"
                }
            }
            rows[row, default: [:]][column] = text
        }
        let lastRow = rows.keys.max() ?? -1
        return (0...max(lastRow, 0)).map { row in
            let columns = rows[row] ?? [:]
            let lastColumn = columns.keys.max() ?? -1
            return (0..<(lastColumn + 1)).map { XLSXArchive.csvField(columns[$0] ?? "") }.joined(separator: ",")
        }.joined(separator: "\n") + "\n"
    }

    /// Zero-based row and column of `B3`.
    static func coordinates(_ reference: String) -> (row: Int, column: Int)? {
        guard let match = reference.wholeMatch(of: #/([A-Z]+)([0-9]+)/#), let row = Int(match.output.2) else {
            return nil
        }
        let column = match.output.1.unicodeScalars.reduce(0) { $0 * 26 + Int($1.value) - 64 } - 1
        return (row - 1, column)
    }

    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Excel's built-in number formats that can appear in these files.
    private static let builtInFormats: [Int: String] = [
        0: "General", 1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00", 9: "0%", 10: "0.00%", 14: "m/d/yy",
        22: "m/d/yy h:mm", 49: "@",
    ]

    private func unzip(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ReadError(
                description: "unzip \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
