import Foundation
import ReconModel

/// Why an earlier `revenue_schedule.csv` cannot be patched: the schedule is then written whole.
struct UntrustedSchedule: Error, Sendable {
    var reason: String
}

/// An earlier `revenue_schedule.csv` read line by line, each line's bytes as the file holds them and its transaction
/// id (the first field, unquoted), with the size and zlib's CRC-32 of every byte read.
///
/// Lines end at a CRLF outside quotes: a quoted field (a user id with a comma, a quote or a line break) is part of
/// its line. Anything this program does not write — a line without CRLF, a field quoted wrongly, trailing bytes, an
/// id whose formula guard (``CSVTable/neutralized(_:)``) leaves it ambiguous — is ``UntrustedSchedule``.
final class PreviousRevenueSchedule {
    private let descriptor: Int32
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    /// The unread bytes are `start..<end` of the buffer.
    private var start = 0
    private var end = 0
    private var atEnd = false
    /// The current line (``next()``), its id's bytes when plain, or the id unquoted.
    private var lineStart = 0
    private var lineEnd = 0
    private var idEnd = 0
    private var unquotedID: [UInt8]?
    /// Every byte read so far: how many, and their CRC-32.
    private(set) var bytesRead: Int64 = 0
    private(set) var crc32: UInt32 = 0

    /// Bytes read at a time.
    static let chunk = 1 << 20

    /// Opens the file at `path`, which must be `bytes` long.
    init(path: String, bytes: Int64) throws(UntrustedSchedule) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ENOENT ? "is not there" : "cannot be read (\(String(cString: strerror(errno))))"
            throw UntrustedSchedule(reason: "the last report's \(path) \(reason)")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int64(info.st_size) == bytes else {
            close(descriptor)
            throw UntrustedSchedule(reason: "the last report's \(path) changed since it was written")
        }
        capacity = 2 * Self.chunk
        buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        close(descriptor)
        buffer.deallocate()
    }

    /// The current line's bytes, CRLF included; valid until ``next()``.
    var line: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: buffer + lineStart, count: lineEnd - lineStart)
    }

    /// Compares the current line's id with `id`, byte by byte as the store orders ids: negative, zero or positive.
    func compareID(with id: UnsafeRawBufferPointer) -> Int {
        if let unquotedID {
            return unquotedID.withUnsafeBytes { Self.compare($0, id) }
        }
        return Self.compare(UnsafeRawBufferPointer(start: buffer + lineStart, count: idEnd - lineStart), id)
    }

    /// Checks that the current line's id comes after `previous` (the line before's; empty for the first), then keeps
    /// it in `previous`.
    func checkOrder(after previous: inout [UInt8]) throws(UntrustedSchedule) {
        // The first line's id is after the empty one, unless it is empty itself.
        guard previous.withUnsafeBytes({ compareID(with: $0) > 0 }) else {
            throw UntrustedSchedule(reason: "the last report's schedule is not in transaction id order")
        }
        previous.removeAll(keepingCapacity: true)
        if let unquotedID {
            previous.append(contentsOf: unquotedID)
        } else {
            previous.append(contentsOf: UnsafeRawBufferPointer(start: buffer + lineStart, count: idEnd - lineStart))
        }
    }

    /// Moves to the next line; false at the end of the file.
    func next() throws(UntrustedSchedule) -> Bool {
        start = lineEnd
        while true {
            if let found = lineEnd(from: start) {
                lineStart = start
                lineEnd = found
                try readID()
                return true
            }
            if atEnd {
                guard start == end else { throw UntrustedSchedule(reason: "the last report's schedule is cut short") }
                lineStart = start
                lineEnd = start
                return false
            }
            try fill()
        }
    }

    /// Past the end of the line that starts at `from`, when the buffer holds all of it.
    private func lineEnd(from: Int) -> Int? {
        let bytes = UnsafeRawPointer(buffer)
        guard let newline = memchr(bytes + from, 0x0A, end - from) else { return nil }
        let plainEnd = bytes.distance(to: UnsafeRawPointer(newline))
        if memchr(bytes + from, 0x22, plainEnd - from) == nil { return plainEnd + 1 }
        // A quote: a line break inside quotes is the field's.
        var quoted = false
        let view = UnsafeRawBufferPointer(start: bytes, count: end)
        for index in from..<end {
            let byte = view[index]
            if byte == 0x22 {
                quoted.toggle()
            } else if byte == 0x0A, !quoted {
                return index + 1
            }
        }
        return nil
    }

    /// The current line's id: its first field, unquoted; the line must end with CRLF.
    private func readID() throws(UntrustedSchedule) {
        let view = UnsafeRawBufferPointer(start: buffer, count: end)
        guard lineEnd - lineStart >= 3, view[lineEnd - 2] == 0x0D else {
            throw UntrustedSchedule(reason: "a line of the last report's schedule does not end with CRLF")
        }
        unquotedID = nil
        if view[lineStart] != 0x22 {
            let comma = memchr(buffer + lineStart, 0x2C, lineEnd - lineStart)
            guard let comma else {
                throw UntrustedSchedule(reason: "a line of the last report's schedule has one field")
            }
            idEnd = UnsafeRawPointer(buffer).distance(to: UnsafeRawPointer(comma))
            let id = UnsafeRawBufferPointer(start: buffer + lineStart, count: idEnd - lineStart)
            guard !id.contains(0x22) else {
                throw UntrustedSchedule(reason: "a line of the last report's schedule has a stray quote")
            }
            guard !Self.mayBeGuarded(id) else { throw Self.guarded }
            return
        }
        var id: [UInt8] = []
        var index = lineStart + 1
        while true {
            guard index < lineEnd else {
                throw UntrustedSchedule(reason: "a line of the last report's schedule has an unclosed quote")
            }
            let byte = view[index]
            index += 1
            if byte == 0x22 {
                guard index < lineEnd, view[index] == 0x22 else { break }
                index += 1
            }
            id.append(byte)
        }
        guard index < lineEnd, view[index] == 0x2C else {
            throw UntrustedSchedule(reason: "a line of the last report's schedule has a field quoted wrongly")
        }
        guard !id.withUnsafeBytes(Self.mayBeGuarded) else { throw Self.guarded }
        idEnd = index
        unquotedID = id
    }

    /// Whether a field may be a formula-guarded id (`'` then `=`, `+`, `-`, `@`, tab or CR): the same bytes for two
    /// ids, so the id cannot be told.
    private static func mayBeGuarded(_ field: UnsafeRawBufferPointer) -> Bool {
        field.count >= 2 && field[0] == 0x27 && [0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D].contains(field[1])
    }

    private static let guarded = UntrustedSchedule(
        reason: "an id of the last report's schedule may carry the formula guard")

    /// Reads the next chunk after the unread bytes, moved to the buffer's start (the buffer grows for a line longer
    /// than a chunk).
    private func fill() throws(UntrustedSchedule) {
        if start > 0 {
            memmove(buffer, buffer + start, end - start)
            end -= start
            start = 0
        }
        if capacity - end < Self.chunk {
            let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 16)
            grown.copyMemory(from: buffer, byteCount: end)
            buffer.deallocate()
            buffer = grown
            capacity *= 2
        }
        while true {
            let count = read(descriptor, buffer + end, capacity - end)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw UntrustedSchedule(
                    reason: "the last report's schedule cannot be read (\(String(cString: strerror(errno))))")
            }
            if count == 0 {
                atEnd = true
            } else {
                crc32 = CSVFile.updatedCRC32(crc32, UnsafeRawBufferPointer(start: buffer + end, count: count))
                bytesRead += Int64(count)
                end += count
            }
            return
        }
    }

    /// Byte by byte, then the shorter first: SQLite's `BINARY` and PostgreSQL's `COLLATE "C"`.
    static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let x = a.baseAddress, let y = b.baseAddress {
            let order = memcmp(x, y, common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }
}
