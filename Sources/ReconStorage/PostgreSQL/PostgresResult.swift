import Foundation
import NIOCore
import PostgresNIO
import ReconModel

/// A statement's rows as the store reads them: every value an integer, a text or NULL, as in SQLite.
///
/// PostgreSQL answers `bigint` and `text` for the store's columns; `numeric` (a `SUM` of `bigint`s),
/// the smaller integers and `boolean` (a comparison) are read as the integers SQLite would give.
package struct PostgresResult {
    /// The result columns' names, in order.
    package var columns: [String]
    package var rows: [[SQLiteValue]]

    /// A `numeric` beyond a 64-bit integer (a sum): SQLite's SUM would have failed with "integer overflow" too.
    package struct IntegerOverflow: Error, CustomStringConvertible {
        package var column: String
        package var description: String { "integer overflow in result column '\(column)'" }
    }

    /// A value PostgreSQL sent that the store never writes nor computes.
    package struct UnexpectedType: Error, CustomStringConvertible {
        package var column: String
        package var type: PostgresDataType
        package var description: String { "result column '\(column)' has type \(type), which the store never uses" }
    }

    init(_ result: PostgresQueryResult) throws {
        columns = []
        rows = []
        rows.reserveCapacity(result.rows.count)
        for row in result.rows {
            var values: [SQLiteValue] = []
            values.reserveCapacity(columns.count)
            let first = columns.isEmpty
            for cell in row {
                if first { columns.append(cell.columnName) }
                values.append(try Self.value(cell))
            }
            rows.append(values)
        }
    }

    /// One cell as SQLite would give it.
    static func value(_ cell: PostgresCell) throws -> SQLiteValue {
        guard var bytes = cell.bytes else { return .null }
        if cell.format == .text {
            let text = bytes.readString(length: bytes.readableBytes) ?? ""
            switch cell.dataType {
            case .int2, .int4, .int8, .numeric: return Int64(text).map(SQLiteValue.integer) ?? .text(text)
            case .bool: return .integer(text == "t" ? 1 : 0)
            default: return .text(text)
            }
        }
        switch cell.dataType {
        case .int8:
            if let value = bytes.readInteger(as: Int64.self) { return .integer(value) }
        case .int4:
            if let value = bytes.readInteger(as: Int32.self) { return .integer(Int64(value)) }
        case .int2:
            if let value = bytes.readInteger(as: Int16.self) { return .integer(Int64(value)) }
        case .bool:
            if let value = bytes.readInteger(as: UInt8.self) { return .integer(value == 0 ? 0 : 1) }
        case .numeric:
            // Exactly, through its digits (never a Double): a sum of integers is an integer.
            let decimal = try cell.decode(Decimal.self)
            guard let value = Int64(decimal.description) else { throw IntegerOverflow(column: cell.columnName) }
            return .integer(value)
        case .text, .varchar, .bpchar, .name, PostgresDataType(705):
            return .text(bytes.readString(length: bytes.readableBytes) ?? "")
        default:
            break
        }
        throw UnexpectedType(column: cell.columnName, type: cell.dataType)
    }
}
