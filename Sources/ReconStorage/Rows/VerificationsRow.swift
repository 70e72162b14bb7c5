import AppleData
import Foundation
import ReconModel

/// A `verifications` row as the support lookup shows it.
package enum VerificationsRow {
    package static let table = "verifications"

    package static let columns = """
        id, record_id, receipt_id, transaction_id, source, endpoint, apple_status, environment, outcome,
        detail, attempts, verified_at, learned_at
        """

    package static func stored(_ statement: any StoreStatement) -> StoredVerification {
        let row = SQLRow(statement, table: table)
        return StoredVerification(
            id: row.int64("id"), recordID: row.optionalText("record_id"), receiptID: row.optionalText("receipt_id"),
            transactionID: row.optionalText("transaction_id"), source: row.text("source"),
            endpoint: row.optionalText("endpoint"), appleStatus: row.optionalInt("apple_status"),
            environment: row.optionalText("environment"), outcome: row.text("outcome"),
            detail: row.optionalText("detail"), attempts: Int(row.int64("attempts")),
            verifiedAt: row.int64("verified_at"), learnedAt: row.optionalInt64("learned_at"))
    }
}
