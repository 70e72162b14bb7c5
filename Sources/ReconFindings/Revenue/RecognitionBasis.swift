/// The amount revenue recognition defers (CONTRACT §2 `--recognition-basis`, §5.1).
public enum RecognitionBasis: String, Sendable, Hashable, CaseIterable {
    /// Apple's `price` where evidence states it, else the ledger's price × quantity: in the customer's currency.
    case customerPrice = "customer-price"
    /// The proceeds as `revenue_daily.csv` prices them (Apple's Financial or Sales Report, else the catalog, else
    /// the rate): in the proceeds currency. The default.
    case proceeds
}
