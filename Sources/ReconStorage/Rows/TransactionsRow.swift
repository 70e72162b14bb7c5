import AppleData
import Foundation
import ReconModel

/// A `transactions` row as a ``LedgerTransaction``: the only place a ledger row becomes a value.
package enum TransactionsRow {
    package static let table = "transactions"

    /// The ledger's columns as a ``LedgerTransaction`` reads them.
    ///
    /// The status is the backend's, unless the backend still says `pending` and our own verification has settled it.
    package static let columns = """
        record_id, user_id, product_id, transaction_id, original_transaction_id, purchase_date, quantity,
        environment, price_milli, currency, storefront,
        CASE WHEN verification_status = 'pending' AND recon_verdict IS NOT NULL THEN recon_verdict
            ELSE verification_status END AS effective_status,
        delivered_at, finished_at, receipt_id,
        CASE WHEN verification_status = 'pending' AND recon_verdict IS NOT NULL THEN
            (SELECT COALESCE(v.learned_at, v.verified_at) FROM verifications v WHERE v.id = recon_verification_id)
            END AS settled_at
        """

    /// - Throws: ``StoreError/unknownValue(table:column:value:)`` for a status this program does not know.
    package static func read(_ statement: any StoreStatement) throws(StoreError) -> LedgerTransaction {
        let row = SQLRow(statement, table: table)
        let transactionID = row.text("transaction_id")
        var transaction = LedgerTransaction(
            recordID: row.text("record_id"), userID: row.text("user_id"), productID: row.text("product_id"),
            transactionID: transactionID,
            originalTransactionID: row.text("original_transaction_id", sameAs: transactionID),
            purchaseDate: row.int64("purchase_date"), quantity: Int(row.int64("quantity")),
            environment: StoreEnvironment(raw: row.text("environment")), price: row.money("price_milli", "currency"),
            storefront: row.optionalText("storefront"),
            verificationStatus: try row.value(
                "effective_status", as: VerificationStatus.self, storedColumn: "verification_status"),
            deliveredAt: row.optionalInt64("delivered_at"), finishedAt: row.optionalInt64("finished_at"),
            receiptID: row.optionalText("receipt_id"))
        transaction.settledAt = row.optionalInt64("settled_at")
        return transaction
    }
}
