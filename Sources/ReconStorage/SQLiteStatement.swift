import CSQLite
import Foundation
import ReconModel

/// A compiled SQLite statement.
///
/// Owns the `sqlite3_stmt*` and finalizes it in `deinit`.
package final class SQLiteStatement: StoreStatement {
    package let handle: OpaquePointer
    // Keeps the connection alive as long as the statement.
    package let database: SQLiteDatabase

    init(handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
        slots = Self.slots(of: handle)
    }

    /// SQLite's index of each parameter `$n`, at `n - 1` (0 where the statement does not name `$n`).
    ///
    /// SQLite reads `$1` as a named parameter and numbers named parameters in the order they first appear, so a
    /// statement that says `$2` before `$1` binds by these, not by position.
    private let slots: [Int32]

    /// SQLite's index of the parameter `$number`.
    func slot(_ number: Int32) throws(StoreError) -> Int32 {
        guard number >= 1, Int(number) <= slots.count, slots[Int(number) - 1] != 0 else {
            throw .sqlite(
                code: SQLITE_RANGE, message: "the statement has no $\(number)", context: "binding a parameter")
        }
        return slots[Int(number) - 1]
    }

    private static func slots(of handle: OpaquePointer) -> [Int32] {
        var slots: [Int32] = []
        let count = sqlite3_bind_parameter_count(handle)
        guard count > 0 else { return [] }
        for index in 1...count {
            guard let name = sqlite3_bind_parameter_name(handle, index).map({ String(cString: $0) }),
                name.first == "$", let number = Int(name.dropFirst()), number >= 1
            else {
                // `?` or `?NNN`: its position is its number.
                while slots.count < Int(index) { slots.append(0) }
                slots[Int(index) - 1] = index
                continue
            }
            while slots.count < number { slots.append(0) }
            slots[number - 1] = index
        }
        return slots
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Resets the statement and binds `values` to parameters 1…n.
    package func bind(_ values: [SQLValue]) throws(StoreError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value to the parameter `$index`.
    package func bind(_ value: SQLValue, at number: Int32) throws(StoreError) {
        let index = try slot(number)
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let number): rc = sqlite3_bind_int64(handle, index, number)
        case .text(let text):
            rc = sqlite3_bind_text(handle, index, text, -1, iaprecon_sqlite_transient())
        }
        if rc != SQLITE_OK {
            throw .sqlite(code: rc, message: database.lastErrorMessage, context: "binding parameter \(index)")
        }
    }

    /// Advances; true while a row is available.
    @discardableResult
    package func step() throws(StoreError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let message = database.lastErrorMessage
            sqlite3_reset(handle)
            throw .sqlite(code: rc, message: message, context: "executing a statement")
        }
    }

    private var lookup = ColumnLookup()

    /// Starts reading the statement's current row by column names (``SQLRow`` calls it).
    package func beginRow() {
        lookup.beginRow()
    }

    /// The index of the result column called `name` (the `AS` name, else the column's own name).
    package func index(of name: String) -> Int32 {
        lookup.index(of: name) {
            (0..<sqlite3_column_count(handle)).map { index in
                sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
            }
        }
    }

    package func isNull(_ column: Int32) -> Bool {
        return sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    package func int64(_ column: Int32) -> Int64 {
        return sqlite3_column_int64(handle, column)
    }

    package func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Whether the text of `column` is `other`, byte for byte (without making a string of it).
    package func textMatches(_ column: Int32, _ other: String) -> Bool {
        guard let pointer = sqlite3_column_text(handle, column) else { return other.isEmpty }
        let count = Int(sqlite3_column_bytes(handle, column))
        var other = other
        return other.withUTF8 { bytes in
            guard bytes.count == count, let base = bytes.baseAddress else { return bytes.count == count }
            return memcmp(base, pointer, count) == 0
        }
    }
}

@available(*, unavailable)
extension SQLiteStatement: Sendable {}
