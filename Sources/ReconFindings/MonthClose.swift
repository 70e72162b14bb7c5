import AppleData
import ReconModel
import ReconStorage

/// One line of the month close: an Apple fiscal month and a region currency.
public struct MonthCloseKey: Sendable, Hashable, Comparable {
    public var period: FiscalPeriod
    /// The region's currency: the Financial Report's `Partner Share Currency`, the payment summary's
    /// `Region (Currency)`.
    public var currency: String

    public init(period: FiscalPeriod, currency: String) {
        self.period = period
        self.currency = currency
    }

    /// `2014-09|EUR`: the identity of a finding about this month and currency (the fiscal month's name).
    public var subject: String {
        let month = period.month
        return "\(month.year)-\(month.month < 10 ? "0" : "")\(month.month)|\(currency)"
    }

    public static func < (a: MonthCloseKey, b: MonthCloseKey) -> Bool {
        (a.period, a.currency) < (b.period, b.currency)
    }
}

/// What the ledger and Apple's Financial Reports say of one fiscal month and region currency.
///
/// Apple's figures sum the region's whole report (paid apps too: that is what Apple owes); the
/// ledger's its in-app sales. Customer amounts count the sales priced in the region's currency.
public struct MonthCloseFigures: Sendable, Hashable {
    public var appleUnits: Int64 = 0
    public var appleCustomerAmount: Int64 = 0
    /// The sum of the report's `Extended Partner Share`: what Apple earned the developer.
    public var appleProceeds: Int64 = 0
    public var ledgerUnits: Int64 = 0
    public var ledgerCustomerAmount: Int64 = 0
    /// Proceeds the ledger's sales should have earned, as Apple (or the catalog) states them.
    package var ledgerStated: Int64 = 0
    /// Net per proceeds rate of the ledger's sales no report or catalog row priced.
    package var ledgerNetByRate: [Int64: Int64] = [:]

    public init() {}

    package mutating func addApple(_ row: FinancialReportRow) {
        appleUnits = Money.sum(appleUnits, row.quantity)
        if row.customerPrice.currency == row.regionCurrency {
            appleCustomerAmount = Money.sum(appleCustomerAmount, row.customerAmount?.milliunits ?? 0)
        }
        appleProceeds = Money.sum(appleProceeds, row.extendedPartnerShare.milliunits)
    }

    package mutating func addLedger(units: Int64, amount: Money, proceeds: Money?, rate: Int64, regionCurrency: String)
    {
        ledgerUnits = Money.sum(ledgerUnits, units)
        guard amount.currency == regionCurrency else { return }
        ledgerCustomerAmount = Money.sum(ledgerCustomerAmount, amount.milliunits)
        if let proceeds, proceeds.currency == regionCurrency {
            ledgerStated = Money.sum(ledgerStated, proceeds.milliunits)
        } else {
            ledgerNetByRate[rate] = Money.sum(ledgerNetByRate[rate] ?? 0, amount.milliunits)
        }
    }

    /// What the ledger's sales should have earned in `currency`: Apple's (or the catalog's) figure
    /// where stated, the rate estimate for the rest.
    public func ledgerExpectedProceeds(currency: String) -> Int64 {
        Money.sum(ledgerStated, RevenueBuilder.Sums.estimate(ledgerNetByRate, currency: currency))
    }
}

/// What Apple's payment summary says of one fiscal month and region currency (every region row of
/// that currency added up: Americas and Rest of World are both paid in USD).
public struct MonthClosePayment: Sendable, Hashable {
    public var regions: [String]
    public var earned: Int64 = 0
    public var inputTax: Int64 = 0
    public var adjustments: Int64 = 0
    public var withholdingTax: Int64 = 0
    public var totalOwed: Int64 = 0
    /// The exchange rate as Apple printed it (regions at different rates: each, joined by ` / `).
    public var exchangeRate: String
    /// What reached the bank, in `bankCurrency`.
    public var paid: Int64 = 0
    public var bankCurrency: String

    /// The payment rows of `regions` (all of one currency) added up; nil when there are none.
    package init?(_ rows: [PaymentRegion]) {
        guard let first = rows.first else { return nil }
        regions = rows.map(\.label)
        var rates: [String] = []
        for rate in rows.map(\.exchangeRate) where !rates.contains(rate) { rates.append(rate) }
        exchangeRate = rates.joined(separator: " / ")
        bankCurrency = first.proceeds.currency
        for row in rows {
            earned = Money.sum(earned, row.earned.milliunits)
            inputTax = Money.sum(inputTax, row.inputTax.milliunits)
            adjustments = Money.sum(adjustments, row.adjustments.milliunits)
            withholdingTax = Money.sum(withholdingTax, row.withholdingTax.milliunits)
            totalOwed = Money.sum(totalOwed, row.totalOwed.milliunits)
            paid = Money.sum(paid, row.proceeds.milliunits)
        }
    }
}

/// One line of `month_close.csv`: the road from the ledger to the bank for a fiscal month and region currency.
public struct MonthCloseLine: Sendable, Hashable {
    public var key: MonthCloseKey
    public var figures: MonthCloseFigures
    /// Nil when no payment summary covers the month (or it has no row in this currency).
    public var payment: MonthClosePayment?
    /// `match`, `mismatch` (a `FINANCIAL_REPORT_MISMATCH` or `PAYMENT_MISMATCH` of this month and
    /// currency), or `unpaid` (no payment summary says what was paid).
    public var status: String
}

/// The month close a report shows (`month_close.csv`, `financial_reconciliation.csv`, sheet `Month Close`).
public struct MonthCloseReport: Sendable, Hashable {
    /// The reports' time zone (IANA name): decides the day of a ledger sale.
    public var timeZone: String
    public var lines: [MonthCloseLine]
    /// Every key of the compared fiscal months present on either side.
    public var financial: [FinancialReconciliationLine]

    public init(timeZone: String, lines: [MonthCloseLine], financial: [FinancialReconciliationLine]) {
        self.timeZone = timeZone
        self.lines = lines
        self.financial = financial
    }
}
