import AppleData
import ReconModel

/// The ledger as detection, verification and the reports read it.
///
/// ``SQLLedger`` keeps them in SQLite.
package protocol LedgerRepository {
    /// Calls `body` with every kept event from `firstDay` through `lastDay` of a transaction not in `temp.rerun`
    /// (``prepareRerun(asOf:more:)``), whose events this report works out anew.
    func forEachKeptLedgerEvent(from firstDay: Int, through lastDay: Int, _ body: (LedgerEvent) throws -> Void) throws

    /// Indexes the ledger by product (once) for ``ledgerProducts(among:asOf:)``: a store holding Apple's reports pays it.
    func indexLedgerByProduct() throws(StoreError)

    /// Which of `productIDs` a ledger row purchased by `asOf` names, and, when there is such a row, one product id
    /// they name: what "the ledger's products" must answer for Apple's rows to be told apart (``SalesReportApp``),
    /// found through an index rather than by reading the ledger.
    func ledgerProducts(among productIDs: Set<String>, asOf: Int64) throws(StoreError) -> Set<String>

    /// One page of the receipts (in the store) that pending rows name, in receipt-id order after
    /// `cursor`, each with its pending rows in purchase order.
    func pendingReceiptGroups(after cursor: String?, limit: Int) throws -> [PendingReceiptGroup]

    /// One page of the pending rows without a receipt in the store, in record-id order after `cursor`.
    func pendingRowsWithoutReceipt(after cursor: String?, limit: Int) throws -> [LedgerTransaction]

    /// How many jobs the pages above hold: one per receipt named by pending rows, one per pending row without one.
    func pendingJobCount() throws -> Int

    /// Every transaction id that shares a purchase with another: a non-consumable's ids under one original
    /// transaction id (a non-consumable by the catalog or by Apple's `type`), and a subscription period's ids under
    /// one `web_order_line_item_id` (Apple writes `0` for purchases that are no subscription: never a link).
    ///
    /// Memory: the ids of such purchases only (restores and second devices), not the ledger.
    func samePurchaseIndex() throws(StoreError) -> SamePurchaseIndex

    /// The catalog, by product id; rows in storefront order (default row first).
    func catalog() throws(StoreError) -> [String: [CatalogProduct]]

    /// Every kept rejection, by file, line, then insertion order.
    func rejectedRows() throws(StoreError) -> [RejectedRow]

    /// Pending ledger rows, oldest first, at most `limit`.
    func forEachPendingTransaction(limit: Int, _ body: (LedgerTransaction) throws -> Void) throws

    /// Row counts of the main tables, for run records.
    func counts() throws(StoreError) -> StoreCounts

    /// Streams every transaction id that the ledger or the evidence names, in id order, with all its ledger rows and
    /// evidence.
    ///
    /// Memory: one group.
    func forEachTransactionGroup(_ body: (TransactionGroup) throws -> Void) throws

    /// Merges the ledger rows and evidence the two queries read (each in transaction id order) into groups.
    func forEachTransactionGroup(ledgerSQL: String, evidenceSQL: String, _ body: (TransactionGroup) throws -> Void)
        throws

    /// Streams ledger rows sharing an original transaction id, for ids with two or more rows, in original
    /// transaction id order, each group's rows by purchase date and record id.
    ///
    /// The ids come from one scan of their index, each group from its own lookup: no list of every id is built
    /// (with millions of subscriptions it would grow with the ledger).
    func forEachOriginalTransactionGroup(_ body: (OriginalTransactionGroup) throws -> Void) throws

    /// The groups of the original transaction ids `ids` selects (in the order it gives), each looked up on its own;
    /// an id with fewer than two ledger rows is no group.
    func forEachOriginalTransactionGroup(ids sql: String, _ body: (OriginalTransactionGroup) throws -> Void) throws
}

extension SQLLedger: LedgerRepository {}
