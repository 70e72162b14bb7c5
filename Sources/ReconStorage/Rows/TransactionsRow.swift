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

    /// The positions of ``columns`` in a statement that selects them, looked up by name once: a statement that reads
    /// every ledger row (``read(_:at:)``) does not look each column up again on every row.
    package struct Positions {
        let recordID, userID, productID, transactionID, originalTransactionID, purchaseDate, quantity: Int32
        let environment, priceMilli, currency, storefront, status, deliveredAt, finishedAt, receiptID: Int32
        let settledAt: Int32

        package init(_ statement: any StoreStatement) {
            statement.beginRow()
            recordID = statement.index(of: "record_id")
            userID = statement.index(of: "user_id")
            productID = statement.index(of: "product_id")
            transactionID = statement.index(of: "transaction_id")
            originalTransactionID = statement.index(of: "original_transaction_id")
            purchaseDate = statement.index(of: "purchase_date")
            quantity = statement.index(of: "quantity")
            environment = statement.index(of: "environment")
            priceMilli = statement.index(of: "price_milli")
            currency = statement.index(of: "currency")
            storefront = statement.index(of: "storefront")
            status = statement.index(of: "effective_status")
            deliveredAt = statement.index(of: "delivered_at")
            finishedAt = statement.index(of: "finished_at")
            receiptID = statement.index(of: "receipt_id")
            settledAt = statement.index(of: "settled_at")
        }
    }

    /// - Throws: ``StoreError/unknownValue(table:column:value:)`` for a status this program does not know.
    package static func read(_ statement: any StoreStatement) throws(StoreError) -> LedgerTransaction {
        try read(statement, at: Positions(statement))
    }

    /// Reads the rows of one statement, the columns' positions looked up at its first row (PostgreSQL names a
    /// statement's columns with its rows).
    package struct Reader {
        private var positions: Positions?

        package init() {}

        /// The statement's current row.
        ///
        /// - Throws: ``StoreError/unknownValue(table:column:value:)`` for a status this program does not know.
        package mutating func read(_ statement: any StoreStatement) throws(StoreError) -> LedgerTransaction {
            let at = positions ?? Positions(statement)
            positions = at
            return try TransactionsRow.read(statement, at: at)
        }
    }

    /// The current row, its columns at `positions` (``Positions``, of this statement).
    ///
    /// - Throws: ``StoreError/unknownValue(table:column:value:)`` for a status this program does not know.
    private static func read(_ row: any StoreStatement, at positions: Positions) throws(StoreError)
        -> LedgerTransaction
    {
        let transactionID = row.text(positions.transactionID)
        var transaction = LedgerTransaction(
            recordID: row.text(positions.recordID), userID: row.text(positions.userID),
            productID: row.text(positions.productID), transactionID: transactionID,
            originalTransactionID: row.text(positions.originalTransactionID, sameAs: transactionID),
            purchaseDate: row.int64(positions.purchaseDate), quantity: Int(row.int64(positions.quantity)),
            environment: StoreEnvironment(raw: row.text(positions.environment)),
            price: row.money(positions.priceMilli, positions.currency),
            storefront: row.optionalText(positions.storefront),
            verificationStatus: try row.value(positions.status, table: table, name: "verification_status"),
            deliveredAt: row.optionalInt64(positions.deliveredAt), finishedAt: row.optionalInt64(positions.finishedAt),
            receiptID: row.optionalText(positions.receiptID))
        transaction.settledAt = row.optionalInt64(positions.settledAt)
        return transaction
    }
}
