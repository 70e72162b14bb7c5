import AppleData
import ReconModel
import ReconStorage

extension Finding {
    /// A finding about one ledger row: filed under its transaction, naming its user, product, record and receipt.
    package init(
        _ code: FindingCode, row: LedgerTransaction, environment: StoreEnvironment?, amount: Money? = nil,
        message: Message
    ) {
        self.init(
            code, transactionID: row.transactionID, originalTransactionID: row.originalTransactionID,
            userIDs: [row.userID], productID: row.productID, environment: environment, amount: amount,
            message: message, recordIDs: [row.recordID], receiptID: row.receiptID)
    }
}
