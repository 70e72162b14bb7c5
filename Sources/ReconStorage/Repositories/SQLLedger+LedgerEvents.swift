import AppleData
import ReconModel

/// The kept events of Apple's reports (``Schema/keptLedgerEvents``), read by an incremental report for the
/// transactions it does not judge again.
extension SQLLedger {
    /// Calls `body` with every kept event from `firstDay` through `lastDay` of a transaction not in `temp.rerun`
    /// (``prepareRerun(asOf:more:)``), whose events this report works out anew.
    package func forEachKeptLedgerEvent(
        from firstDay: Int, through lastDay: Int, _ body: (LedgerEvent) throws -> Void
    ) throws {
        let stmt = try db.prepare(
            """
            SELECT day, record_id, transaction_id, user_id, product_id, storefront, currency, units, amount_milli,
                proceeds_milli, proceeds_currency, rate_ppm
            FROM ledger_events
            WHERE day BETWEEN $1 AND $2 AND transaction_id NOT IN (SELECT transaction_id FROM rerun)
            """)
        try stmt.bind([.integer(Int64(firstDay)), .integer(Int64(lastDay))])
        while try stmt.step() {
            try body(
                LedgerEvent(
                    day: Int(stmt.int64(0)), recordID: stmt.text(1), transactionID: stmt.text(2),
                    userID: stmt.text(3), productID: stmt.text(4), storefront: stmt.text(5), currency: stmt.text(6),
                    units: stmt.int64(7), amount: stmt.int64(8),
                    proceeds: stmt.optionalText(10).map { Money(milliunits: stmt.int64(9), currency: $0) },
                    rate: stmt.int64(11)))
        }
    }

    /// Indexes the ledger by product (once) for ``ledgerProducts(among:asOf:)``: a store holding Apple's reports pays it.
    package func indexLedgerByProduct() throws(StoreError) {
        try db.execute(Schema.transactionsByProduct, context: "indexing the ledger by product")
    }

    /// Which of `productIDs` a ledger row purchased by `asOf` names, and, when there is such a row, one product id
    /// they name: what "the ledger's products" must answer for Apple's rows to be told apart (``SalesReportApp``),
    /// found through an index rather than by reading the ledger.
    package func ledgerProducts(among productIDs: Set<String>, asOf: Int64) throws(StoreError) -> Set<String> {
        let exists = try db.prepare("SELECT 1 FROM transactions WHERE product_id = $1 AND purchase_date <= $2 LIMIT 1")
        var found: Set<String> = []
        for productID in productIDs.sorted() {
            try exists.bind([.text(productID), .integer(asOf)])
            if try exists.step() { found.insert(productID) }
            exists.reset()
        }
        let any = try db.prepare("SELECT product_id FROM transactions WHERE purchase_date <= $1 LIMIT 1")
        try any.bind([.integer(asOf)])
        if try any.step() { found.insert(any.text(0)) }
        return found
    }
}
