/// One sale or refund one transaction adds to one line of the revenue report (a day, product and currency): what
/// the line's sums are made of.
///
/// The store keeps every transaction's parts, so a line a changed transaction touches is added up again from its
/// parts alone (``RevenueBuilder/row(day:productID:currency:parts:)``), without judging its other transactions again.
public struct RevenuePart: Sendable, Hashable {
    /// Days since 1970-01-01 in the report's time zone.
    public var day: Int
    public var productID: String
    public var currency: String
    public var units: Int64
    /// Milliunits of the currency.
    public var gross: Int64
    public var refunds: Int64
    /// The proceeds rate (ppm) of the sale.
    public var rate: Int64
    /// What the part adds to the line's net at `rate`: the sale's value, or the refund's negative.
    public var net: Int64
    /// The proceeds a report or the catalog stated for the part (a refund's negative share); nil: estimated.
    public var stated: Money?
    public var statedSource: ProceedsSource?

    package init(
        day: Int, productID: String, currency: String, units: Int64, gross: Int64, refunds: Int64, rate: Int64,
        net: Int64, stated: Money? = nil, statedSource: ProceedsSource? = nil
    ) {
        self.day = day
        self.productID = productID
        self.currency = currency
        self.units = units
        self.gross = gross
        self.refunds = refunds
        self.rate = rate
        self.net = net
        self.stated = stated
        self.statedSource = statedSource
    }
}
