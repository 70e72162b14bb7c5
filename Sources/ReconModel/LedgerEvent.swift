/// One sale, return or reversal of a counted ledger row, as Apple's reports book it: the ledger's side of the Sales
/// and Financial Report reconciliations (``SalesReconciliation``, ``FinancialReconciliation``).
///
/// A transaction's events depend on its own rows and evidence, the catalog and the proceeds Apple states for the
/// day of its sale, so the store keeps them beside its other results: an incremental report compares Apple's
/// reports with the kept events of the transactions it does not judge again (CONTRACT §5 "Incremental reports").
public struct LedgerEvent: Sendable, Hashable {
    /// Days since 1970-01-01 in the reports' time zone (Apple's day of the sale, return or reversal).
    public var day: Int
    public var recordID: String
    public var transactionID: String
    public var userID: String
    public var productID: String
    /// The storefront (ISO 3166-1 alpha-3) of the sale: the ledger's, else the evidence's; empty when neither says.
    public var storefront: String
    public var currency: String
    /// Units sold (positive) or taken back (negative; a partial refund takes none back).
    public var units: Int64
    /// The customer amount, milliunits of ``currency``: a return's is negative.
    public var amount: Int64
    /// The proceeds Apple's reports or the catalog state for it (a return's negative share); nil: estimated.
    public var proceeds: Money?
    /// The proceeds rate (ppm) an estimate uses.
    public var rate: Int64

    /// The country of sale (ISO 3166-1 alpha-2) of ``storefront``, as the Financial Reports name it; empty when unknown.
    public var country: String { Territory.alpha2(fromAlpha3: storefront) ?? "" }

    package init(
        day: Int, recordID: String, transactionID: String, userID: String, productID: String, storefront: String,
        currency: String, units: Int64, amount: Int64, proceeds: Money? = nil, rate: Int64
    ) {
        self.day = day
        self.recordID = recordID
        self.transactionID = transactionID
        self.userID = userID
        self.productID = productID
        self.storefront = storefront
        self.currency = currency
        self.units = units
        self.amount = amount
        self.proceeds = proceeds
        self.rate = rate
    }
}
