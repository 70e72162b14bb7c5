import AppleData
import ReconModel

/// Keeps each judged transaction's share of the report while detection runs, for the next report (CONTRACT §5
/// "Incremental reports"): its findings, revenue parts, counters and next moment of change, then the revenue lines.
///
/// ``RevenueRepository/startTransactionResults(everything:)`` starts one per report;
/// ``SQLTransactionResultsWriter`` keeps the results in SQLite.
package protocol TransactionResultsWriter: AnyObject {
    /// Whether every transaction is judged (the results replace the kept ones) or only those to rerun.
    var everything: Bool { get }

    /// One transaction's results, kept under its original transaction id too (``TransactionGroup/originalTransactionID``,
    /// the key Citus would distribute them by); a transaction with no counts and no moment of change keeps no result
    /// row. `events` are kept when the store holds Apple's reports (``LedgerEvent``); `sale` is the transaction as revenue
    /// recognition counts it, if it does (CONTRACT §5.1).
    func add(
        _ transactionID: String, originalTransactionID: String, findings: [Finding], parts: [RevenuePart],
        counters: TransactionCounters, nextChange: Int64?, events: [LedgerEvent], sale: RecognitionSale?
    ) throws(StoreError)

    /// One original transaction's findings (a subscription's) and its next moment of change.
    func addOriginal(_ originalTransactionID: String, findings: [Finding], nextChange: Int64?) throws(StoreError)

    /// The revenue lines (day, product, currency) this report shows.
    func addLines(_ rows: some Sequence<RevenueRow>) throws(StoreError)

    /// Makes what was added durable.
    func commit() throws(StoreError)
}

extension SQLTransactionResultsWriter: TransactionResultsWriter {}
