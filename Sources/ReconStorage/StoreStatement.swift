import ReconModel

/// A compiled statement of either engine: bound, stepped row by row, read by column (``SQLiteStatement``,
/// ``PostgresStatement``).
package protocol StoreStatement: AnyObject {
    /// Resets the statement and binds `values` to parameters `$1…$n`.
    func bind(_ values: [SQLValue]) throws(StoreError)
    /// Binds one value to the parameter `$number`.
    func bind(_ value: SQLValue, at number: Int32) throws(StoreError)
    /// Advances; true while a row is available.
    @discardableResult func step() throws(StoreError) -> Bool
    /// Makes the statement ready to be bound and run again (bindings are kept until overwritten).
    func reset()

    func bindInt64(_ value: Int64, at index: Int32) throws(StoreError)
    func bindNull(at index: Int32) throws(StoreError)
    /// Binds `count` bytes of UTF-8 at `pointer` as text; they must stay valid until the statement has run.
    func bindText(_ pointer: UnsafePointer<UInt8>, count: Int, at index: Int32) throws(StoreError)
    func bindText(_ text: String, at index: Int32) throws(StoreError)
    /// Runs a statement bound parameter by parameter to completion, then resets it.
    func runBound() throws(StoreError)
    /// Binds each of `texts` at its parameter, then runs like ``runBound()`` (SQLite binds them without copies:
    /// ``SQLiteStatement/runBinding(texts:)``).
    func runBinding(texts: [(text: String, at: Int32)]) throws(StoreError)
    /// Writes the rows added and not yet written (``SQLiteRowBatch``); a statement that runs each row as it is added
    /// has none.
    func flush() throws(StoreError)

    /// Starts reading the statement's current row by column names (``SQLRow`` calls it).
    func beginRow()
    /// The index of the result column called `name`.
    func index(of name: String) -> Int32
    func isNull(_ column: Int32) -> Bool
    /// The value as an integer: NULL is 0.
    func int64(_ column: Int32) -> Int64
    /// The value as text: NULL is empty, an integer its digits.
    func text(_ column: Int32) -> String
    /// Whether the text of `column` is `other`, byte for byte.
    func textMatches(_ column: Int32, _ other: String) -> Bool
    /// The ``RowHash`` of the text of `column` under `seed`.
    func textHash(_ column: Int32, seed: UInt64) -> UInt64
}

extension StoreStatement {
    package func flush() throws(StoreError) {}

    /// Binds `values` and runs to completion.
    package func run(_ values: [SQLValue]) throws(StoreError) {
        try bind(values)
        while try step() {}
    }

    package func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    package func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    /// The text of `column`, sharing `other`'s storage when it is the same text (an original transaction id is most
    /// often the transaction id itself: one string less per row).
    package func text(_ column: Int32, sameAs other: String) -> String {
        textMatches(column, other) ? other : text(column)
    }

    /// The one money decode: an amount in milliunits and its currency; nil unless both are stored.
    package func money(_ milliunits: Int32, _ currency: Int32) -> Money? {
        guard let milli = optionalInt64(milliunits), let code = optionalText(currency) else { return nil }
        return Money(milliunits: milli, currency: code)
    }

    /// A stored enum value; `table` and `name` name the stored column in an error.
    ///
    /// - Throws: ``StoreError/unknownValue(table:column:value:)`` for a value `T` does not know.
    package func value<T: RawRepresentable>(_ column: Int32, as type: T.Type = T.self, table: String, name: String)
        throws(StoreError) -> T where T.RawValue == String
    {
        let raw = text(column)
        guard let value = T(rawValue: raw) else { throw .unknownValue(table: table, column: name, value: raw) }
        return value
    }
}

/// A statement's result columns by name, and the lookups of the row being read, for ``StoreStatement/index(of:)``.
///
/// A row type reads every row of a statement by asking for the same columns in the same order, so the n-th lookup of
/// a row is almost always the n-th lookup of the row before: it costs one string comparison (equal literals compare
/// by their storage first) instead of a hash of the name. A lookup that does not match is resolved by name and
/// replaces the entry, so the answer never depends on the order.
package struct ColumnLookup {
    /// Result columns by name (the `AS` name, else the column's own name); a name two share maps to `ambiguous`.
    private var indexes: [String: Int32]?
    private var rowLookups: [(name: String, index: Int32)] = []
    private var cursor = 0
    private static let ambiguous: Int32 = -1
    /// Lookups remembered per row; a caller that never starts rows does not grow the list.
    private static let remembered = 64

    package init() {}

    package mutating func beginRow() { cursor = 0 }

    /// The index of `name` among `columns` (asked for once, when first needed).
    ///
    /// A name the statement does not return, or returns twice, is a mistake in our SQL, not in the data.
    package mutating func index(of name: String, columns: () -> [String]) -> Int32 {
        let position = cursor
        cursor += 1
        if position < rowLookups.count, rowLookups[position].name == name { return rowLookups[position].index }
        if indexes == nil {
            var byName: [String: Int32] = [:]
            for (index, key) in columns().enumerated() {
                byName[key] = byName[key] == nil ? Int32(index) : Self.ambiguous
            }
            indexes = byName
        }
        guard let index = indexes?[name], index != Self.ambiguous else {
            preconditionFailure("result column '\(name)' is missing or ambiguous")
        }
        if position < rowLookups.count {
            rowLookups[position] = (name, index)
        } else if position == rowLookups.count, position < Self.remembered {
            rowLookups.append((name, index))
        }
        return index
    }
}
