/// One line of the deferred revenue roll-forward (CONTRACT §5 `deferred_revenue.csv`): a calendar month, product and
/// currency, in milliunits of the currency.
public struct DeferredRevenueRow: Sendable, Hashable {
    /// `year × 12 + month − 1`, in the report's time zone.
    public var month: Int
    public var productID: String
    public var currency: String
    public var opening: Int64
    public var billings: Int64
    public var recognized: Int64
    public var refundsReleased: Int64
    public var refundsReversed: Int64

    public init(
        month: Int, productID: String, currency: String, opening: Int64, billings: Int64, recognized: Int64,
        refundsReleased: Int64, refundsReversed: Int64
    ) {
        self.month = month
        self.productID = productID
        self.currency = currency
        self.opening = opening
        self.billings = billings
        self.recognized = recognized
        self.refundsReleased = refundsReleased
        self.refundsReversed = refundsReversed
    }

    /// `opening + billings − recognized − refunds_released` (capped at the money type's bounds, never trapping).
    public var closing: Int64 {
        Money.difference(Money.difference(Money.sum(opening, billings), recognized), refundsReleased)
    }
    /// `recognized − refunds_reversed`.
    public var netRevenue: Int64 { Money.difference(recognized, refundsReversed) }
}
