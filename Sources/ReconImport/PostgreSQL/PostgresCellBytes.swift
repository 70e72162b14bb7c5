import AppleData
import Foundation
import PostgresNIO
import ReconModel
import ReconStorage

/// A PostgreSQL value's text appended as bytes to a row's CSV line, with no `String` per value,
/// for the ledger's fast path (CONTRACT §1.7): the bytes are exactly ``PostgresCellText``'s text.
///
/// Only plain text (printable ASCII, no comma, no quote) of the common binary types is appended;
/// anything else declines, and the row goes the general way, which decides it as before.
package enum PostgresCellBytes {
    /// Appends the text of `cell` (nothing for SQL NULL) to `line`; false when the row must go
    /// the general way (another type, a value that is not plain, a value with no exact text).
    package static func append(_ cell: PostgresCell, to line: inout [UInt8]) -> Bool {
        guard var bytes = cell.bytes else { return true }
        guard cell.format == .binary else { return false }
        switch cell.dataType {
        case .text, .varchar, .bpchar, .name, PostgresDataType(705):  // 705: unknown (a quoted literal)
            return bytes.withUnsafeReadableBytes { raw in
                for byte in raw where byte < 0x20 || byte > 0x7E || byte == 0x2C || byte == 0x22 { return false }
                line.append(contentsOf: raw)
                return true
            }
        case .int2:
            guard let value = bytes.readInteger(as: Int16.self) else { return false }
            appendInteger(Int64(value), to: &line)
            return true
        case .int4:
            guard let value = bytes.readInteger(as: Int32.self) else { return false }
            appendInteger(Int64(value), to: &line)
            return true
        case .int8:
            guard let value = bytes.readInteger(as: Int64.self) else { return false }
            appendInteger(value, to: &line)
            return true
        case .timestamptz:
            guard let micros = bytes.readInteger(as: Int64.self), micros != .max, micros != .min else { return false }
            let millis = Timestamp.floorDiv(micros, 1000) + PostgresCellText.epochOffsetMicros / 1000
            return appendISO(millis, to: &line)
        case .numeric:
            return PostgresCellText.appendNumeric(&bytes, to: &line)
        default:
            return false
        }
    }

    /// `value` in decimal, as `String(value)` writes it.
    package static func appendInteger(_ value: Int64, to line: inout [UInt8]) {
        if value < 0 { line.append(0x2D) }
        var magnitude = value.magnitude
        let start = line.count
        repeat {
            line.append(UInt8(truncatingIfNeeded: 0x30 + magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        line[start...].reverse()
    }

    /// The instant `millis` as ``Timestamp/iso(_:)`` writes it; false for a year outside 0...9999 (the
    /// general way writes those).
    package static func appendISO(_ millis: Int64, to line: inout [UInt8]) -> Bool {
        let start = line.count
        line.append(contentsOf: repeatElement(0, count: Timestamp.isoMaxLength))
        let written = line.withUnsafeMutableBufferPointer { buffer in
            Timestamp.writeISO(millis, into: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
        }
        line.removeLast(Timestamp.isoMaxLength - (written ?? 0))
        return written != nil
    }
}
