import AppleData
import Foundation
import ReconModel

/// A `rejected_rows` row as a ``RejectedRow``.
package enum RejectedRowsRow {
    package static let table = "rejected_rows"

    package static let columns = "kind, source_file, line, record_id, reason, raw"

    /// - Throws: ``StoreError/unknownValue(table:column:value:)`` for an input kind this program
    ///   does not know.
    package static func read(_ statement: any StoreStatement) throws(StoreError) -> RejectedRow {
        let row = SQLRow(statement, table: table)
        return RejectedRow(
            kind: try row.value("kind", as: InputKind.self), source: row.text("source_file"),
            line: Int(row.int64("line")), recordID: row.optionalText("record_id"), reason: row.text("reason"),
            raw: row.text("raw"))
    }
}
