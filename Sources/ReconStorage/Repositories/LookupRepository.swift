import AppleData
import ReconModel

/// What support's lookup reads of one user or transaction.
///
/// ``SQLLookup`` keeps them in SQLite.
package protocol LookupRepository {
    /// Ledger rows by user, transaction id or original transaction id, in booking order.
    func ledgerRows(userID: String?, transactionIDs: [String], originalTransactionIDs: [String]) throws
        -> [LedgerTransaction]

    /// Receipts by id or uploader (payloads left out).
    func receiptHeaders(ids: [String], userID: String?) throws -> [ReceiptHeader]

    /// Evidence naming any of the transaction ids, or read from any of the receipts.
    func evidence(transactionIDs: [String], receiptIDs: [String]) throws -> [EvidenceRecord]

    /// Findings (open and resolved) about any of the transactions or the user.
    func findingHistory(transactionIDs: [String], userID: String?) throws -> [FindingHistory]
}

extension SQLLookup: LookupRepository {}

extension LookupRepository {
    /// A user's ledger rows.
    package func ledgerRows(userID: String) throws -> [LedgerTransaction] {
        try ledgerRows(userID: userID, transactionIDs: [], originalTransactionIDs: [])
    }

    /// Ledger rows by transaction id.
    package func ledgerRows(transactionIDs: [String]) throws -> [LedgerTransaction] {
        try ledgerRows(userID: nil, transactionIDs: transactionIDs, originalTransactionIDs: [])
    }

    /// Ledger rows by transaction id or original transaction id.
    package func ledgerRows(transactionIDs: [String], originalTransactionIDs: [String]) throws -> [LedgerTransaction] {
        try ledgerRows(userID: nil, transactionIDs: transactionIDs, originalTransactionIDs: originalTransactionIDs)
    }

    /// Ledger rows by original transaction id.
    package func ledgerRows(originalTransactionIDs: [String]) throws -> [LedgerTransaction] {
        try ledgerRows(userID: nil, transactionIDs: [], originalTransactionIDs: originalTransactionIDs)
    }
}
