/// One in-app purchase row of an Apple Summary Sales Report (CONTRACT §1.5): units of one product
/// sold (or refunded, negative) in one territory and currency at one customer price, on one
/// calendar day in the report's time zone.
///
/// Columns as Apple documents them:
/// https://developer.apple.com/help/app-store-connect/reference/summary-sales-report
public struct SalesReportRow: Sendable, Hashable {
    /// The report's calendar day (`Begin Date`), days since 1970-01-01.
    public var day: Int
    /// `SKU`: the product id the ledger records.
    public var productID: String
    /// `Product Type Identifier` (`IA1`, `IAY`, ...).
    public var productType: String
    /// `Country Code` (ISO 3166-1 alpha-2).
    public var countryCode: String
    /// The same territory as the ledger's alpha-3 storefront code.
    public var storefront: String
    /// `Units`: negative on refund rows.
    public var units: Int64
    /// `Customer Price`: per unit, in `Customer Currency` (negative on refund rows).
    public var customerPrice: Money
    /// `Developer Proceeds`: per unit, in `Currency of Proceeds`.
    ///
    /// The customer price less the taxes Apple collects and its commission. Apple writes it positive on
    /// refund rows too: the sign is in ``units`` (see ``proceedsAmount``). Nil when the report has no
    /// such column or the cell is empty.
    public var developerProceeds: Money?
    /// `Parent Identifier`: for an in-app purchase, the SKU of the app it belongs to, as Apple's
    /// sample report explains it; nil when the report has no such column or the cell is empty.
    public var parentIdentifier: String?
    /// The physical line of the file the row came from.
    public var line: Int

    public init(
        day: Int, productID: String, productType: String, countryCode: String, storefront: String, units: Int64,
        customerPrice: Money, developerProceeds: Money? = nil, parentIdentifier: String? = nil, line: Int
    ) {
        self.day = day
        self.productID = productID
        self.productType = productType
        self.countryCode = countryCode
        self.storefront = storefront
        self.units = units
        self.customerPrice = customerPrice
        self.developerProceeds = developerProceeds
        self.parentIdentifier = parentIdentifier
        self.line = line
    }

    /// What the customers paid on this row: `units` × the unit price, negative for refunds (Apple writes a refund as
    /// negative units, its price with or without a minus sign).
    ///
    /// A row of 0 units with a price is a partial refund (a prorated share of a purchase, no unit returned): its
    /// amount is the `Customer Price` as the row states it, negative for a refund (``isPartialRefund``). Nil on
    /// overflow.
    public var customerAmount: Money? {
        guard customerPrice.milliunits != .min else { return nil }
        if units == 0 { return customerPrice }
        let (total, overflow) = units.multipliedReportingOverflow(by: abs(customerPrice.milliunits))
        return overflow ? nil : Money(milliunits: total, currency: customerPrice.currency)
    }

    /// Whether the row is a partial refund: 0 units, an amount but no unit taken back.
    public var isPartialRefund: Bool { units == 0 && customerPrice.milliunits < 0 }

    /// What Apple owes for this row: `units` × the unit proceeds, in `Currency of Proceeds`,
    /// negative for refunds (Apple writes the proceeds of a refund row positive, with negative units:
    /// https://developer.apple.com/help/app-store-connect/reference/summary-sales-report).
    ///
    /// A row of 0 units states its proceeds as a whole, with the sign of its `Customer Price` (a partial refund
    /// takes proceeds back). Nil when the report states no proceeds, or on overflow.
    public var proceedsAmount: Money? {
        guard let developerProceeds, developerProceeds.milliunits != .min else { return nil }
        if units == 0 {
            let stated = abs(developerProceeds.milliunits)
            return Money(
                milliunits: customerPrice.milliunits < 0 ? -stated : stated, currency: developerProceeds.currency)
        }
        let (total, overflow) = units.multipliedReportingOverflow(by: abs(developerProceeds.milliunits))
        return overflow ? nil : Money(milliunits: total, currency: developerProceeds.currency)
    }

    /// Product Type Identifiers of in-app purchases, the only rows compared with the ledger:
    /// consumable (`IA1`), non-consumable (`IA9`), auto-renewable (`IAY`) and non-renewing (`IAC`)
    /// purchases, their Mac variants (`-M`), and `FI1` (in-app purchase, Mac/tvOS/offer code).
    public static let inAppPurchaseTypes: Set<String> = [
        "IA1", "IA1-M", "IA9", "IA9-M", "IAY", "IAY-M", "IAC", "IAC-M", "FI1",
    ]
}
