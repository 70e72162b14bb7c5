/// One row of an Apple Financial Report (CONTRACT §1.9): units of one product sold (or returned,
/// negative) in one country at one customer price, over one Apple fiscal month, with what Apple
/// owes the developer for them.
///
/// Columns as Apple documents them:
/// https://developer.apple.com/help/app-store-connect/reference/financial-report-fields
public struct FinancialReportRow: Sendable, Hashable {
    /// `Start Date` and `End Date` of Apple's fiscal month (Sunday to Saturday), days since
    /// 1970-01-01, as printed in the report: never computed from calendar months.
    public var period: FiscalPeriod
    /// `Vendor Identifier`: the product id for an in-app purchase.
    public var productID: String
    /// `Product Type Identifier` (`IA1`, `IAY`, `F1`, ...).
    public var productType: String
    /// `Country Of Sale` (ISO 3166-1 alpha-2, upper case).
    public var countryCode: String
    /// `Quantity`: negative on returns.
    public var quantity: Int64
    /// `Partner Share`: proceeds per unit, in `Partner Share Currency`; always positive.
    public var partnerShare: Money
    /// `Extended Partner Share`: quantity × partner share, signed, as Apple printed it.
    public var extendedPartnerShare: Money
    /// `Customer Price`: per unit, in `Customer Currency` (negative on returns).
    public var customerPrice: Money
    /// `Sales or Return`: `S` or `R`.
    public var isReturn: Bool
    /// The physical line of the file the row came from.
    public var line: Int

    public init(
        period: FiscalPeriod, productID: String, productType: String, countryCode: String, quantity: Int64,
        partnerShare: Money, extendedPartnerShare: Money, customerPrice: Money, isReturn: Bool, line: Int
    ) {
        self.period = period
        self.productID = productID
        self.productType = productType
        self.countryCode = countryCode
        self.quantity = quantity
        self.partnerShare = partnerShare
        self.extendedPartnerShare = extendedPartnerShare
        self.customerPrice = customerPrice
        self.isReturn = isReturn
        self.line = line
    }

    /// Whether the row is an in-app purchase (CONTRACT §1.5's product types), the only rows compared with the
    /// ledger.
    public var isInAppPurchase: Bool { SalesReportRow.inAppPurchaseTypes.contains(productType) }

    /// The currency Apple owes this row in: the report's region currency.
    public var regionCurrency: String { partnerShare.currency }

    /// What the customers paid on this row: quantity × the unit price, negative for returns.
    ///
    /// Apple writes a return as a negative quantity and a negative price. Nil on overflow.
    public var customerAmount: Money? {
        guard customerPrice.milliunits != .min else { return nil }
        let (total, overflow) = quantity.multipliedReportingOverflow(by: abs(customerPrice.milliunits))
        return overflow ? nil : Money(milliunits: total, currency: customerPrice.currency)
    }
}

/// An Apple fiscal month as a report prints it: `Start Date` to `End Date`, inclusive days since
/// 1970-01-01.
///
/// Apple's fiscal months run Sunday to Saturday in 5-4-4 week quarters, so a period is 28 or 35
/// days and never a calendar month
/// (https://developer.apple.com/help/app-store-connect/reference/financial-report-fields: "Start
/// Date" and "End Date" of the fiscal month). The month it is named after is the calendar month
/// of its middle day: a four- or five-week period straddles at most a few days of its neighbours.
public struct FiscalPeriod: Sendable, Hashable, Comparable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// Whether `day` falls in the period.
    public func contains(_ day: Int) -> Bool { start <= day && day <= end }

    /// The fiscal month's name as Apple writes it in file names and payment summaries: the year and
    /// month of the period's middle day.
    public var month: FiscalMonth {
        let middle = Timestamp.civil(fromDays: start + (end - start) / 2)
        return FiscalMonth(year: middle.year, month: middle.month)
    }

    /// `2014-08-31 to 2014-09-27`.
    public var text: String { "\(Timestamp.dayString(start)) to \(Timestamp.dayString(end))" }

    public static func < (a: FiscalPeriod, b: FiscalPeriod) -> Bool { (a.start, a.end) < (b.start, b.end) }
}

/// A fiscal month by name (`September 2014`), as a payment summary's title gives it.
public struct FiscalMonth: Sendable, Hashable, Comparable {
    public var year: Int
    /// 1...12.
    public var month: Int

    public init(year: Int, month: Int) {
        self.year = year
        self.month = month
    }

    public static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// `September 2014`.
    public var text: String { "\(FiscalMonth.monthNames[month - 1]) \(year)" }

    public static func < (a: FiscalMonth, b: FiscalMonth) -> Bool { (a.year, a.month) < (b.year, b.month) }
}

/// An Apple Financial Report as read: every row (paid apps too: they are part of what Apple owes), its fiscal
/// month, and the region its file name gives.
public struct FinancialReport: Sendable {
    public var period: FiscalPeriod
    /// The region code of the file name (`EU`, `US`, `WW`, `ZZ` for all regions), or empty when the name does not
    /// follow Apple's `<vendor>_<MMYY>_<region>` pattern.
    public var region: String
    public var rows: [FinancialReportRow]

    public init(period: FiscalPeriod, region: String, rows: [FinancialReportRow]) {
        self.period = period
        self.region = region
        self.rows = rows
    }
}
