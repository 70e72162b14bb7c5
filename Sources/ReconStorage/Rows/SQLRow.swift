import AppleData
import Foundation
import ReconModel

/// The current row of a statement, read by column name, for one table's row type.
///
/// Every stored enum goes through ``value(_:)``: a value this program does not know is a
/// ``StoreError/unknownValue(table:column:value:)`` naming the table, the column and the value,
/// never a silent default.
package struct SQLRow {
    package let statement: any StoreStatement
    /// The table the row type reads (for error messages).
    package let table: String

    package init(_ statement: any StoreStatement, table: String) {
        self.statement = statement
        self.table = table
        statement.beginRow()
    }

    package func text(_ column: String) -> String { statement.text(statement.index(of: column)) }

    /// The text of `column`, sharing `other`'s storage when it is the same text (an original
    /// transaction id is most often the transaction id itself: one string less per row).
    package func text(_ column: String, sameAs other: String) -> String {
        statement.text(statement.index(of: column), sameAs: other)
    }

    package func optionalText(_ column: String) -> String? { statement.optionalText(statement.index(of: column)) }

    package func int64(_ column: String) -> Int64 { statement.int64(statement.index(of: column)) }

    package func optionalInt64(_ column: String) -> Int64? { statement.optionalInt64(statement.index(of: column)) }

    package func optionalInt(_ column: String) -> Int? { optionalInt64(column).map { Int($0) } }

    /// The one money decode: an amount in milliunits and its currency; nil unless both are stored.
    package func money(_ milliunits: String, _ currency: String) -> Money? {
        statement.money(statement.index(of: milliunits), statement.index(of: currency))
    }

    /// An environment as stored (Apple's spelling; an unrecognised one is kept raw on purpose).
    package func environment(_ column: String) -> StoreEnvironment? {
        optionalText(column).map(StoreEnvironment.init(raw:))
    }

    /// A stored enum value.
    ///
    /// - Parameter storedColumn: the table column to name in an error, when the result column is
    ///   an expression over it.
    /// - Throws: ``StoreError/unknownValue(table:column:value:)`` for a value `T` does not know.
    package func value<T: RawRepresentable>(
        _ column: String, as type: T.Type = T.self, storedColumn: String? = nil
    ) throws(StoreError) -> T where T.RawValue == String {
        try statement.value(statement.index(of: column), as: type, table: table, name: storedColumn ?? column)
    }

    /// A stored enum value, or nil when the column is NULL.
    ///
    /// - Throws: ``StoreError/unknownValue(table:column:value:)`` for a value `T` does not know.
    package func optionalValue<T: RawRepresentable>(_ column: String, as type: T.Type = T.self) throws(StoreError) -> T?
    where T.RawValue == String {
        guard optionalText(column) != nil else { return nil }
        return try value(column, as: type)
    }
}
