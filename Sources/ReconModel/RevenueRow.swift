import Foundation

/// One line of `revenue_daily.csv`: a day, a product, a currency.
public struct RevenueRow: Sendable, Hashable {
    /// Days since 1970-01-01 in the report's time zone.
    public var day: Int
    public var productID: String
    public var currency: String
    public var units: Int64
    /// Milliunits of `currency`.
    public var gross: Int64
    public var refunds: Int64
    public var net: Int64 { Money.difference(gross, refunds) }
    /// `gross` less `refunds` × the proceeds rate: the flat-rate guess (CONTRACT §5 `estimated_proceeds`).
    public var estimatedProceeds: Int64
    /// Apple's proceeds where Apple stated them, else the catalog's, else the estimate; milliunits of
    /// `proceedsCurrency` (CONTRACT §5 `proceeds`).
    public var proceeds: Int64
    public var proceedsCurrency: String
    /// The weakest source among the line's sales (CONTRACT §5 `proceeds_source`).
    public var proceedsSource: ProceedsSource

    public var date: String { Timestamp.dayString(day) }

    package init(
        day: Int, productID: String, currency: String, units: Int64, gross: Int64, refunds: Int64,
        estimatedProceeds: Int64, proceeds: Int64, proceedsCurrency: String, proceedsSource: ProceedsSource
    ) {
        self.day = day
        self.productID = productID
        self.currency = currency
        self.units = units
        self.gross = gross
        self.refunds = refunds
        self.estimatedProceeds = estimatedProceeds
        self.proceeds = proceeds
        self.proceedsCurrency = proceedsCurrency
        self.proceedsSource = proceedsSource
    }
}
