import AppleData
import Foundation
import ReconModel
import ReconStorage

/// One CSV record: the physical line it starts on, its fields, and its raw text.
public struct CSVRecord: Sendable {
    public var line: Int
    public var fields: [String]
    /// The record's text as it was in the file (without the line break), for rejections.
    public var raw: String
    /// Set when the record is not well-formed CSV (a quote in an unquoted field, text after a
    /// closing quote, an unterminated quote at end of file).
    public var syntaxError: String?
}

/// Reads a file in chunks (never the whole file), handing complete chunks of bytes to a parser.
package struct ChunkedFile {
    package let path: String
    private let fd: Int32
    package private(set) var buffer: [UInt8] = []
    /// Bytes of `buffer` before this index have been consumed.
    package var consumed = 0
    package private(set) var atEOF = false
    package static let chunkSize = 1 << 20

    package init(path: String) throws(ImportFileError) {
        self.path = path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .cannotOpen(path: path, reason: "is a directory")
        }
        fd = open(path, O_RDONLY)
        if fd < 0 { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
    }

    /// Drops consumed bytes and appends the next chunk.
    ///
    /// Returns false at end of file.
    package mutating func refill() throws(ImportFileError) -> Bool {
        if atEOF { return false }
        if consumed > 0 {
            buffer.removeFirst(consumed)
            consumed = 0
        }
        let oldCount = buffer.count
        buffer.reserveCapacity(oldCount + Self.chunkSize)
        var readCount = 0
        buffer.append(contentsOf: repeatElement(0, count: Self.chunkSize))
        buffer.withUnsafeMutableBytes { raw in
            readCount = read(fd, raw.baseAddress.map { $0 + oldCount }, Self.chunkSize)
        }
        if readCount < 0 {
            let reason = String(cString: strerror(errno))
            buffer.removeLast(Self.chunkSize)
            throw .readFailed(path: path, reason: reason)
        }
        buffer.removeLast(Self.chunkSize - readCount)
        if readCount == 0 { atEOF = true }
        return readCount > 0
    }

    package func close() { _ = Foundation.close(fd) }

    /// Skips a UTF-8 byte order mark at the start of the file.
    package mutating func skipByteOrderMark() throws(ImportFileError) {
        // Need at least 3 bytes (or the end of the file) to see one.
        while buffer.count - consumed < 3, try refill() {}
        if buffer.count - consumed >= 3, buffer[consumed] == 0xEF, buffer[consumed + 1] == 0xBB,
            buffer[consumed + 2] == 0xBF
        {
            consumed += 3
        }
    }
}

/// A streaming RFC 4180 reader: quoted fields with embedded commas, quotes (`""`) and line breaks, LF or CRLF, an
/// optional UTF-8 byte order mark.
///
/// Memory is one chunk plus one record.
package struct CSVReader {
    private var file: ChunkedFile
    private var line = 1
    private var first = true

    package init(path: String) throws(ImportFileError) {
        file = try ChunkedFile(path: path)
    }

    /// Calls `body` with every record in order, the header included (line 1).
    package mutating func forEach(_ body: (CSVRecord) throws -> Void) throws {
        defer { file.close() }
        while true {
            if let record = try nextRecord() { try body(record) } else { return }
        }
    }

    /// Like ``forEach(_:)``, but first offers each record that is one line without a quote to
    /// `plain`, as its bytes (line break excluded) and line number; a record `plain` declines
    /// (returns false), and every other record, goes to `body` as a ``CSVRecord``.
    package mutating func forEach(
        plain: (UnsafeBufferPointer<UInt8>, Int) throws -> Bool, _ body: (CSVRecord) throws -> Void
    ) throws {
        defer { file.close() }
        while true {
            if !first, file.consumed < file.buffer.count {
                let start = file.consumed
                let line = self.line
                let taken: Int? = try file.buffer.withUnsafeBufferPointer { b throws -> Int? in
                    let rest = b.count - start
                    guard let base = b.baseAddress,
                        let found = memchr(base + start, 0x0A, rest)?.assumingMemoryBound(to: UInt8.self)
                    else { return nil }
                    let newline = UnsafePointer(found) - base
                    var end = newline
                    if end > start, b[end - 1] == 0x0D { end -= 1 }
                    guard end > start, memchr(base + start, 0x22, end - start) == nil else { return nil }
                    return try plain(UnsafeBufferPointer(start: base + start, count: end - start), line)
                        ? newline + 1 : nil
                }
                if let taken {
                    file.consumed = taken
                    self.line += 1
                    continue
                }
            }
            if let record = try nextRecord() { try body(record) } else { return }
        }
    }

    /// The next record, or nil at end of file.
    private mutating func nextRecord() throws(ImportFileError) -> CSVRecord? {
        while true {
            if first {
                try file.skipByteOrderMark()
                first = false
            }
            if file.consumed >= file.buffer.count {
                if try !file.refill() { return nil }
                continue
            }
            if let (record, end, lines) = parse(from: file.consumed, final: file.atEOF) {
                file.consumed = end
                let startLine = line
                line += lines
                var result = record
                result.line = startLine
                return result
            }
            // Incomplete record in the buffer: read more and parse it again from its start.
            if try !file.refill() {
                // EOF reached: parse what is left as final.
                guard let (record, end, lines) = parse(from: file.consumed, final: true) else { return nil }
                file.consumed = end
                let startLine = line
                line += lines
                var result = record
                result.line = startLine
                return result
            }
        }
    }

    /// Parses one record starting at `start`.
    ///
    /// Returns nil when the buffer ends before the record does and more input may follow.
    private func parse(from start: Int, final: Bool) -> (CSVRecord, Int, Int)? {
        let b = file.buffer
        var i = start
        var fields: [String] = []
        var field: [UInt8] = []
        var inQuotes = false
        var afterQuote = false
        var syntaxError: String?
        var lines = 1
        var recordEnd = b.count
        var next = b.count
        var fieldStart = i
        var useSlice = true  // field is a plain slice b[fieldStart..<i]

        func finishField(_ end: Int) {
            if useSlice {
                fields.append(String(decoding: b[fieldStart..<end], as: UTF8.self))
            } else {
                fields.append(String(decoding: field, as: UTF8.self))
            }
            field.removeAll(keepingCapacity: true)
            useSlice = true
            afterQuote = false
        }

        var ended = false
        while i < b.count {
            let c = b[i]
            if inQuotes {
                if c == 0x22 {
                    if i + 1 < b.count {
                        if b[i + 1] == 0x22 {
                            field.append(0x22)
                            i += 2
                            continue
                        }
                        inQuotes = false
                        afterQuote = true
                        i += 1
                        continue
                    } else if !final {
                        return nil
                    } else {
                        inQuotes = false
                        afterQuote = true
                        i += 1
                        continue
                    }
                }
                if c == 0x0A { lines += 1 }
                field.append(c)
                i += 1
                continue
            }
            switch c {
            case 0x2C:  // ,
                finishField(i)
                i += 1
                fieldStart = i
            case 0x0A:
                let end = (i > start && b[i - 1] == 0x0D && !afterQuote) ? i - 1 : i
                if afterQuote || !useSlice {
                    finishField(i)
                } else {
                    finishField(end)
                }
                recordEnd = end
                next = i + 1
                ended = true
            case 0x0D where i + 1 < b.count && b[i + 1] == 0x0A:
                i += 1
                continue
            case 0x0D where i + 1 >= b.count && !final:
                return nil
            case 0x22:
                if useSlice && i == fieldStart {
                    inQuotes = true
                    useSlice = false
                } else {
                    if syntaxError == nil { syntaxError = "a quote inside an unquoted field" }
                    if useSlice {
                        field.append(contentsOf: b[fieldStart..<i])
                        useSlice = false
                    }
                    field.append(c)
                }
                i += 1
            default:
                if afterQuote {
                    if syntaxError == nil { syntaxError = "text after a closing quote" }
                }
                if !useSlice { field.append(c) }
                i += 1
            }
            if ended { break }
        }
        if !ended {
            guard final else { return nil }
            if inQuotes, syntaxError == nil { syntaxError = "a quoted field is not closed before the end of the file" }
            if i == start { return nil }
            finishField(i)
            recordEnd = i
            next = i
        }
        var rawEnd = recordEnd
        if rawEnd > start, b[rawEnd - 1] == 0x0D { rawEnd -= 1 }
        let raw = String(decoding: b[start..<max(start, rawEnd)], as: UTF8.self)
        return (CSVRecord(line: 0, fields: fields, raw: raw, syntaxError: syntaxError), next, lines)
    }
}

/// One non-blank line of a JSONL file.
package struct JSONLLine {
    package var line: Int
    package var text: String
}

/// A streaming reader of lines (LF or CRLF), skipping blank ones, with physical line numbers.
package struct LineReader {
    private var file: ChunkedFile
    private var line = 0
    private var first = true

    package init(path: String) throws(ImportFileError) {
        file = try ChunkedFile(path: path)
    }

    /// Calls `body` with every non-blank line.
    package mutating func forEach(_ body: (JSONLLine) throws -> Void) throws {
        defer { file.close() }
        while true {
            if file.consumed >= file.buffer.count, try !file.refill() { return }
            if first {
                try file.skipByteOrderMark()
                first = false
            }
            let b = file.buffer
            guard let newline = b[file.consumed...].firstIndex(of: 0x0A) else {
                if try file.refill() { continue }
                // Last line without a newline.
                if file.consumed < file.buffer.count {
                    line += 1
                    let text = String(decoding: file.buffer[file.consumed...], as: UTF8.self)
                    file.consumed = file.buffer.count
                    if !text.allSatisfy(\.isWhitespace) { try body(JSONLLine(line: line, text: text)) }
                }
                return
            }
            line += 1
            var end = newline
            if end > file.consumed, b[end - 1] == 0x0D { end -= 1 }
            let text = String(decoding: b[file.consumed..<end], as: UTF8.self)
            file.consumed = newline + 1
            if !text.allSatisfy(\.isWhitespace) { try body(JSONLLine(line: line, text: text)) }
        }
    }
}
