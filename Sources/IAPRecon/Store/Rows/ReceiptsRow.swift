import Foundation

/// A `receipts` row (aliased `r`) as an ``UploadedReceipt`` or a ``ReceiptSummary``.
enum ReceiptsRow {
    static let table = "receipts"

    /// The columns of a summary (payload left out), for a table aliased `r`.
    static let summaryColumns = """
        r.receipt_id AS receipt_id, r.user_id AS user_id, r.received_at AS received_at, r.format AS format,
        r.claimed_environment AS claimed_environment
        """

    /// The summary columns and the payload, for a table aliased `r`.
    static let uploadColumns = summaryColumns + ", r.data AS data"

    /// - Throws: ``StoreError/unknownValue(table:column:value:)`` for a format this program does not know.
    static func summary(_ statement: SQLiteStatement) throws(StoreError) -> ReceiptSummary {
        let row = SQLiteRow(statement, table: table)
        return ReceiptSummary(
            receiptID: row.text("receipt_id"), userID: row.optionalText("user_id"),
            receivedAt: row.optionalInt64("received_at"), format: try row.value("format", as: ReceiptFormat.self),
            claimedEnvironment: row.environment("claimed_environment"))
    }

    /// - Throws: ``StoreError/unknownValue(table:column:value:)`` for a format this program does not know.
    static func upload(_ statement: SQLiteStatement) throws(StoreError) -> UploadedReceipt {
        let row = SQLiteRow(statement, table: table)
        return UploadedReceipt(
            receiptID: row.text("receipt_id"), userID: row.optionalText("user_id"),
            receivedAt: row.optionalInt64("received_at"), format: try row.value("format", as: ReceiptFormat.self),
            data: row.text("data"), claimedEnvironment: row.environment("claimed_environment"))
    }
}
