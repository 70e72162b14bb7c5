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
    /// Binds each of `texts` at its parameter, then runs like ``runBound()`` (SQLite binds them without copies).
    func runBinding(texts: [(text: String, at: Int32)]) throws(StoreError)

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
    /// Binds `values` and runs to completion.
    package func run(_ values: [SQLValue]) throws(StoreError) {
        try bind(values)
        while try step() {}
    }

    package func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    package func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
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

extension StoreStatement {
    /// Binds each of `texts` at its parameter from the string's own UTF-8, without a copy, then runs the statement
    /// bound parameter by parameter (``runBound()``) while those bytes are still valid.
    ///
    /// The rows a report keeps per judged transaction bind several texts each: bound as copies
    /// (``bindText(_:at:)``), every one is an allocation and a copy inside the engine.
    package func runBinding(texts: [(text: String, at: Int32)]) throws(StoreError) {
        try bindThenRun(texts, from: 0)
    }

    /// Binds `texts[index...]`, each inside the access to its bytes, and runs once all are bound.
    private func bindThenRun(_ texts: [(text: String, at: Int32)], from index: Int) throws(StoreError) {
        guard index < texts.count else {
            try runBound()
            return
        }
        var failure: StoreError?
        let parameter = texts[index].at
        let contiguous: Void? = texts[index].text.utf8.withContiguousStorageIfAvailable { bytes in
            do throws(StoreError) {
                if let base = bytes.baseAddress, !bytes.isEmpty {
                    try bindText(base, count: bytes.count, at: parameter)
                } else {
                    try bindText("", at: parameter)  // empty text, not NULL
                }
                try bindThenRun(texts, from: index + 1)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        if contiguous == nil {
            // A string not stored as UTF-8 (bridged): bound as a copy.
            try bindText(texts[index].text, at: parameter)
            try bindThenRun(texts, from: index + 1)
        }
    }
}
