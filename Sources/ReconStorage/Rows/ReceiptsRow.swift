import AppleData
import Foundation
import ReconModel

/// A `receipts` row (aliased `r`) as an ``UploadedReceipt`` or a ``ReceiptHeader``.
package enum ReceiptsRow {
    package static let table = "receipts"

    /// The columns of a header (payload left out), for a table aliased `r`.
    package static let headerColumns = """
        r.receipt_id AS receipt_id, r.user_id AS user_id, r.received_at AS received_at, r.format AS format,
        r.claimed_environment AS claimed_environment
        """

    /// The header columns for a timeline: a receipt without `received_at` is placed by its import time.
    package static let timelineColumns = """
        r.receipt_id AS receipt_id, r.user_id AS user_id, COALESCE(r.received_at, r.imported_at) AS received_at,
        r.format AS format, r.claimed_environment AS claimed_environment
        """

    /// The header columns and the payload, for a table aliased `r`.
    package static let uploadColumns = headerColumns + ", r.data AS data"

    /// - Throws: ``StoreError/unknownValue(table:column:value:)`` for a format this program does not know.
    package static func header(_ statement: any StoreStatement) throws(StoreError) -> ReceiptHeader {
        let row = SQLRow(statement, table: table)
        return ReceiptHeader(
            receiptID: row.text("receipt_id"), userID: row.optionalText("user_id"),
            receivedAt: row.optionalInt64("received_at"), format: try row.value("format", as: ReceiptFormat.self),
            claimedEnvironment: row.environment("claimed_environment"))
    }

    /// - Throws: ``StoreError/unknownValue(table:column:value:)`` for a format this program does not know.
    package static func upload(_ statement: any StoreStatement) throws(StoreError) -> UploadedReceipt {
        let row = SQLRow(statement, table: table)
        return UploadedReceipt(
            receiptID: row.text("receipt_id"), userID: row.optionalText("user_id"),
            receivedAt: row.optionalInt64("received_at"), format: try row.value("format", as: ReceiptFormat.self),
            data: row.text("data"), claimedEnvironment: row.environment("claimed_environment"))
    }
}
