import AppleData
import Foundation
import PostgresNIO
import ReconModel
import ReconStorage

/// A PostgreSQL value as the text a file would hold for it (CONTRACT §1.7), exactly: `numeric` from
/// its decimal digits (never through a binary float), `timestamptz` as an ISO 8601 instant,
/// `int2/4/8`, `text`/`varchar`/`uuid`, `bool`, `json`/`jsonb` as their text.
///
/// A type with no exact text for an input field (a `timestamp` without time zone, a float, a
/// date) is a ``RowRejection`` naming the column; the row is rejected as a file's would be.
package enum PostgresCellText {
    /// Microseconds from 1970-01-01 to PostgreSQL's epoch, 2000-01-01.
    package static let epochOffsetMicros: Int64 = 946_684_800_000_000

    /// The text of `cell`, nil for SQL NULL.
    package static func text(_ cell: PostgresCell) throws(RowRejection) -> String? {
        guard var bytes = cell.bytes else { return nil }
        let column = cell.columnName
        switch cell.dataType {
        case .timestamp:
            throw RowRejection(
                "no time zone in '\(column)': a timestamp without time zone is not an instant "
                    + "(select it as timestamptz, e.g. \(column) AT TIME ZONE 'UTC')")
        case .float4, .float8:
            throw RowRejection(
                "inexact number in '\(column)': a binary float cannot hold an exact amount (cast it to numeric)")
        case .date:
            throw RowRejection("no time of day in '\(column)': a date is not an instant (select a timestamptz)")
        default: break
        }
        if cell.format == .text {
            let text = bytes.readString(length: bytes.readableBytes) ?? ""
            if cell.dataType == .bool { return text == "t" ? "true" : text == "f" ? "false" : text }
            return text
        }
        return try binary(&bytes, type: cell.dataType, column: column)
    }

    /// The text of a value in PostgreSQL's binary format.
    private static func binary(_ bytes: inout ByteBuffer, type: PostgresDataType, column: String) throws(RowRejection)
        -> String
    {
        func malformed() -> RowRejection { RowRejection("malformed \(type) value in '\(column)'") }
        switch type {
        case .text, .varchar, .bpchar, .name, .json, PostgresDataType(705):  // 705: unknown (a quoted literal)
            return bytes.readString(length: bytes.readableBytes) ?? ""
        case .jsonb:
            guard bytes.readInteger(as: UInt8.self) == 1 else { throw malformed() }
            return bytes.readString(length: bytes.readableBytes) ?? ""
        case .bool:
            guard let byte = bytes.readInteger(as: UInt8.self) else { throw malformed() }
            return byte == 0 ? "false" : "true"
        case .int2:
            guard let value = bytes.readInteger(as: Int16.self) else { throw malformed() }
            return String(value)
        case .int4:
            guard let value = bytes.readInteger(as: Int32.self) else { throw malformed() }
            return String(value)
        case .int8:
            guard let value = bytes.readInteger(as: Int64.self) else { throw malformed() }
            return String(value)
        case .uuid:
            guard let raw = bytes.readBytes(length: 16) else { throw malformed() }
            let hex = raw.map { String(format: "%02x", $0) }.joined()
            let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
                hex[
                    hex.index(
                        hex.startIndex, offsetBy: range.lowerBound)..<hex.index(
                            hex.startIndex, offsetBy: range.upperBound)]
            }
            return parts.joined(separator: "-")
        case .timestamptz:
            guard let micros = bytes.readInteger(as: Int64.self) else { throw malformed() }
            guard micros != .max, micros != .min else {
                throw RowRejection("infinite timestamp in '\(column)': not an instant")
            }
            // Millisecond precision, as the store keeps instants; floor, as the text parser truncates.
            return Timestamp.iso(Timestamp.floorDiv(micros, 1000) + epochOffsetMicros / 1000)
        case .numeric:
            guard let text = numeric(&bytes) else {
                throw RowRejection("bad number in '\(column)': NaN or infinity is not an amount")
            }
            return text
        default:
            throw RowRejection(
                "unsupported column type in '\(column)': \(type) (cast it to text, numeric, timestamptz, bigint or boolean)"
            )
        }
    }

    /// A `numeric` in binary format as its exact decimal text (`-12.340` keeps its scale); nil for
    /// NaN and the infinities.
    package static func numeric(_ bytes: inout ByteBuffer) -> String? {
        var text: [UInt8] = []
        guard appendNumeric(&bytes, to: &text) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends ``numeric(_:)``'s text to `text`; false for NaN, the infinities and a malformed value.
    ///
    /// The format: digit count, weight (of the first base-10000 digit), sign, display scale, then
    /// the base-10000 digits.
    package static func appendNumeric(_ bytes: inout ByteBuffer, to text: inout [UInt8]) -> Bool {
        guard let count = bytes.readInteger(as: Int16.self), let weight = bytes.readInteger(as: Int16.self),
            let sign = bytes.readInteger(as: UInt16.self), let scale = bytes.readInteger(as: Int16.self),
            count >= 0, scale >= 0
        else { return false }
        guard sign == 0x0000 || sign == 0x4000 else { return false }
        let base = bytes.readerIndex
        var anyNonZero = false
        for index in 0..<Int(count) {
            guard let digit = bytes.getInteger(at: base + 2 * index, as: Int16.self), (0..<10_000).contains(digit)
            else { return false }
            if digit != 0 { anyNonZero = true }
        }
        defer { bytes.moveReaderIndex(forwardBy: 2 * Int(count)) }
        // (`getInteger(at:)` reads only bytes after the reader index: the digits are read in place.)
        func digit(_ index: Int) -> Int {
            guard index >= 0, index < Int(count) else { return 0 }
            return Int(bytes.getInteger(at: base + 2 * index, as: Int16.self) ?? 0)
        }
        func put(_ value: Int, width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                text.append(UInt8(truncatingIfNeeded: 0x30 + (value / divisor) % 10))
                divisor /= 10
            }
        }
        if sign == 0x4000 && anyNonZero { text.append(0x2D) }
        if weight < 0 {
            text.append(0x30)
        } else {
            let first = digit(0)
            put(first, width: first >= 1000 ? 4 : first >= 100 ? 3 : first >= 10 ? 2 : 1)
            if weight >= 1 { for index in 1...Int(weight) { put(digit(index), width: 4) } }
        }
        if scale > 0 {
            text.append(0x2E)
            var left = Int(scale)
            var index = Int(weight) + 1
            while left > 0 {
                let group = digit(index)
                var divisor = 1000
                while divisor > 0, left > 0 {
                    text.append(UInt8(truncatingIfNeeded: 0x30 + (group / divisor) % 10))
                    divisor /= 10
                    left -= 1
                }
                index += 1
            }
        }
        return true
    }
}
