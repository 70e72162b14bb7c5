import AppleData
import Foundation
import ReconModel

/// A `notifications` row as the lookup timeline shows it.
package enum NotificationsRow {
    package static let table = "notifications"

    package static let columns = """
        notification_uuid, notification_type, subtype, signed_date, environment, transaction_id,
        original_transaction_id, product_id, revocation_date, revocation_type, source
        """

    package static func stored(_ statement: any StoreStatement) -> StoredNotification {
        let row = SQLRow(statement, table: table)
        return StoredNotification(
            uuid: row.text("notification_uuid"), type: row.text("notification_type"),
            subtype: row.optionalText("subtype"), signedDate: row.int64("signed_date"),
            environment: row.optionalText("environment"), transactionID: row.optionalText("transaction_id"),
            originalTransactionID: row.optionalText("original_transaction_id"),
            productID: row.optionalText("product_id"), revocationDate: row.optionalInt64("revocation_date"),
            revocationType: row.optionalText("revocation_type"), source: row.text("source"))
    }
}
