/// Apple's payment summary for one fiscal month (CONTRACT §1.9): per region, what the Financial
/// Report earned, the taxes and adjustments Apple applied, what it owed, the exchange rate to the
/// bank's currency and what it paid; and the total that reached the bank.
///
/// App Store Connect offers it beside the Financial Reports ("Payments and Financial Reports").
public struct PaymentSummary: Sendable, Hashable {
    /// The fiscal month the title names.
    public var month: FiscalMonth
    public var regions: [PaymentRegion]
    /// The footer's total paid, in the bank's currency.
    public var totalPaid: Money?

    public init(month: FiscalMonth, regions: [PaymentRegion], totalPaid: Money?) {
        self.month = month
        self.regions = regions
        self.totalPaid = totalPaid
    }
}

/// One region's row of a payment summary.
///
/// Amounts up to `totalOwed` are in the region's currency; `proceeds` is in the bank account's.
public struct PaymentRegion: Sendable, Hashable {
    /// `Euro-Zone`, `Americas`, `Rest of World`: the label before the currency.
    public var region: String
    /// The region's currency: the Financial Report's `Partner Share Currency`.
    public var currency: String
    public var unitsSold: Int64
    /// What the region's Financial Report earned: the sum of its `Extended Partner Share`.
    public var earned: Money
    public var preTaxSubtotal: Money
    /// Tax Apple adds to (or credits against) the proceeds, for example VAT on Apple's commission.
    public var inputTax: Money
    public var adjustments: Money
    /// Tax Apple withholds at the source (negative: it reduces what is paid).
    public var withholdingTax: Money
    public var totalOwed: Money
    /// The rate from the region's currency to the bank's, exactly as Apple printed it (all its digits).
    public var exchangeRate: String
    /// What was paid for the region, in the bank account's currency.
    public var proceeds: Money
    /// The physical line of the file.
    public var line: Int

    public init(
        region: String, currency: String, unitsSold: Int64, earned: Money, preTaxSubtotal: Money, inputTax: Money,
        adjustments: Money, withholdingTax: Money, totalOwed: Money, exchangeRate: String, proceeds: Money, line: Int
    ) {
        self.region = region
        self.currency = currency
        self.unitsSold = unitsSold
        self.earned = earned
        self.preTaxSubtotal = preTaxSubtotal
        self.inputTax = inputTax
        self.adjustments = adjustments
        self.withholdingTax = withholdingTax
        self.totalOwed = totalOwed
        self.exchangeRate = exchangeRate
        self.proceeds = proceeds
        self.line = line
    }

    /// `Euro-Zone (EUR)`.
    public var label: String { "\(region) (\(currency))" }
}
