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
    /// Every row's values, one row after another, ``width`` values each: one array for a batch of rows, not one per
    /// row.
    package private(set) var values: [SQLValue]
    /// Values per row.
    package private(set) var width: Int
    package private(set) var rowCount: Int

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
        try self.init(rows: result.rows)
    }

    /// The rows of a prepared statement's run.
    ///
    /// `binary`: the values are in binary whatever the cells say. postgres-nio 1.21 asks for every result column in
    /// binary when it runs a prepared statement, but keeps the statement's description as `Describe` gave it, in text.
    init(rows: [PostgresRow], binary: Bool = false) throws {
        columns = []
        values = []
        width = 0
        rowCount = 0
        for row in rows {
            if rowCount == 0 {
                for cell in row { columns.append(cell.columnName) }
                width = columns.count
                values.reserveCapacity(rows.count * width)
            }
            for cell in row {
                if binary, cell.format != .binary {
                    let fixed = PostgresCell(
                        bytes: cell.bytes, dataType: cell.dataType, format: .binary, columnName: cell.columnName,
                        columnIndex: cell.columnIndex)
                    values.append(try Self.value(fixed))
                } else {
                    values.append(try Self.value(cell))
                }
            }
            rowCount += 1
        }
    }

    /// The value of `row` in `column`; nil outside the result.
    package func value(row: Int, column: Int) -> SQLValue? {
        guard row >= 0, row < rowCount, column >= 0, column < width else { return nil }
        return values[row * width + column]
    }

    /// The rows of `next` (a cursor's next batch) in place of these; the column names stay when it has none.
    package mutating func replaceRows(with next: PostgresResult) {
        values = next.values
        rowCount = next.rowCount
        width = next.width
        if columns.isEmpty { columns = next.columns }
    }

    /// One cell as SQLite would give it.
    static func value(_ cell: PostgresCell) throws -> SQLValue {
        guard var bytes = cell.bytes else { return .null }
        if cell.format == .text {
            let text = bytes.readString(length: bytes.readableBytes) ?? ""
            switch cell.dataType {
            case .int2, .int4, .int8, .numeric: return Int64(text).map(SQLValue.integer) ?? .text(text)
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
