import CSQLite
import Foundation
import ReconModel

/// A compiled statement.
///
/// Owns the `sqlite3_stmt*` and finalizes it in `deinit`.
package final class SQLiteStatement {
    package let handle: OpaquePointer!
    /// The statement when the store is in PostgreSQL; then `handle` is nil.
    package let postgres: PostgresStatement?
    // Keeps the connection alive as long as the statement.
    package let database: SQLiteDatabase

    init(handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
        postgres = nil
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

    init(postgres: PostgresStatement, database: SQLiteDatabase) {
        handle = nil
        self.postgres = postgres
        self.database = database
        slots = []
    }

    deinit {
        if let handle { sqlite3_finalize(handle) }
    }

    /// Resets the statement and binds `values` to parameters 1…n.
    package func bind(_ values: [SQLiteValue]) throws(StoreError) {
        if let postgres { return postgres.bind(values) }
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value to the parameter `$index`.
    package func bind(_ value: SQLiteValue, at number: Int32) throws(StoreError) {
        if let postgres { return postgres.bind(value, at: Int(number)) }
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
        if let postgres { return try postgres.step() }
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

    /// Binds `values` and runs to completion.
    package func run(_ values: [SQLiteValue]) throws(StoreError) {
        try bind(values)
        while try step() {}
    }

    /// Result columns by name (the `AS` name, else the column's own name); a name two result
    /// columns share maps to `ambiguousColumn`.
    private lazy var columnIndexes: [String: Int32] = {
        var indexes: [String: Int32] = [:]
        if let postgres {
            for (index, key) in postgres.columns.enumerated() {
                indexes[key] = indexes[key] == nil ? Int32(index) : Self.ambiguousColumn
            }
            return indexes
        }
        for index in 0..<sqlite3_column_count(handle) {
            guard let name = sqlite3_column_name(handle, index) else { continue }
            let key = String(cString: name)
            indexes[key] = indexes[key] == nil ? index : Self.ambiguousColumn
        }
        return indexes
    }()

    private static let ambiguousColumn: Int32 = -1

    /// The lookups made since ``beginRow()``, in the order they were made.
    ///
    /// A row type reads every row of a statement by asking for the same columns in the same
    /// order, so the n-th lookup of a row is almost always the n-th lookup of the row before: it
    /// costs one string comparison (equal literals compare by their storage first) instead of a
    /// hash of the name. A lookup that does not match is resolved by name and replaces the entry,
    /// so the answer never depends on the order.
    private var rowLookups: [(name: String, index: Int32)] = []
    private var rowLookupCursor = 0
    /// Lookups remembered per row; a caller that never starts rows does not grow the list.
    private static let rememberedLookups = 64

    /// Starts reading the statement's current row by column names (``SQLiteRow`` calls it).
    package func beginRow() {
        rowLookupCursor = 0
    }

    /// The index of the result column called `name`.
    ///
    /// A name the statement does not return, or returns twice, is a mistake in our SQL, not in the data.
    package func index(of name: String) -> Int32 {
        let position = rowLookupCursor
        rowLookupCursor += 1
        if position < rowLookups.count, rowLookups[position].name == name { return rowLookups[position].index }
        guard let index = columnIndexes[name], index != Self.ambiguousColumn else {
            preconditionFailure("result column '\(name)' is missing or ambiguous")
        }
        if position < rowLookups.count {
            rowLookups[position] = (name, index)
        } else if position == rowLookups.count, position < Self.rememberedLookups {
            rowLookups.append((name, index))
        }
        return index
    }

    package func isNull(_ column: Int32) -> Bool {
        if let postgres { return postgres.value(column) == .null }
        return sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    package func int64(_ column: Int32) -> Int64 {
        if let postgres { return postgres.int64(column) }
        return sqlite3_column_int64(handle, column)
    }

    package func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    package func text(_ column: Int32) -> String {
        if let postgres { return postgres.text(column) }
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    package func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    /// Whether the text of `column` is `other`, byte for byte (without making a string of it).
    package func textMatches(_ column: Int32, _ other: String) -> Bool {
        if let postgres { return postgres.text(column) == other }
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
