import AppleData
import Foundation
import ReconModel
import ReconStorage

/// One key of the Financial Report reconciliation: an Apple fiscal month, a product, a country of
/// sale (ISO 3166-1 alpha-2) and a customer currency.
public struct FinancialKey: Sendable, Hashable, Comparable {
    public var period: FiscalPeriod
    public var productID: String
    public var country: String
    public var currency: String

    public init(period: FiscalPeriod, productID: String, country: String, currency: String) {
        self.period = period
        self.productID = productID
        self.country = country
        self.currency = currency
    }

    /// `2014-08-31|2014-09-27|com.example.coins|DE|EUR`: the identity of a finding about this key.
    public var subject: String {
        [Timestamp.dayString(period.start), Timestamp.dayString(period.end), productID, country, currency]
            .joined(separator: "|")
    }

    public static func < (a: FinancialKey, b: FinancialKey) -> Bool {
        (a.period, a.productID, a.country, a.currency) < (b.period, b.productID, b.country, b.currency)
    }
}

/// Apple's and the ledger's figures for one key: sales less returns.
public struct FinancialReconciliationLine: Sendable, Hashable {
    public var key: FinancialKey
    public var appleUnits: Int64 = 0
    public var ledgerUnits: Int64 = 0
    /// Customer amounts, milliunits of the key's currency.
    public var appleAmount: Int64 = 0
    public var ledgerAmount: Int64 = 0
    /// Apple's proceeds for the key (its `Extended Partner Share`), in the region currency; nil when
    /// Apple has no row for it.
    public var appleProceeds: Money?
    /// Their Apple transaction ids, sorted, distinct.
    public var transactionIDs: [String] = []

    public init(key: FinancialKey) {
        self.key = key
    }

    /// Both sides agree on units and on the customer amount.
    public var matches: Bool { appleUnits == ledgerUnits && appleAmount == ledgerAmount }
}

/// Apple's Financial Reports beside the ledger (CONTRACT §4 `FINANCIAL_REPORT_MISMATCH`, §5
/// `financial_reconciliation.csv` and `month_close.csv`).
///
/// Apple's side is each report's in-app purchase rows of this app; the ledger's is what the revenue
/// report counts (``RevenuePolicy``): a sale in the fiscal month holding its purchase day, a return in
/// the fiscal month holding its refund day ("Returns count in the month Apple books them"), days in
/// the reports' time zone. Only fiscal months that ended by the as-of are compared (CONTRACT §5:
/// `--as-of` is a cut-off). Memory: one entry per key of the compared months.
public struct FinancialReconciliation {
    private let timeZone: TimeZone
    /// The compared fiscal months, ascending.
    public let periods: [FiscalPeriod]
    private let pricer: ProceedsPricer
    private let app: SalesReportApp
    /// Every product id the ledger's transactions name, as detection saw them: with the catalog and the bundle
    /// ids, they say which of Apple's rows are this app's.
    private var ledgerProducts: Set<String> = []
    private var entries: [FinancialKey: FinancialReconciliationLine] = [:]
    private var transactions: [FinancialKey: Set<String>] = [:]
    /// Which region currency Apple books a country's sales in a customer currency, per fiscal month.
    private var regionOf: [FinancialKey: String] = [:]
    /// Per fiscal month and region currency: the whole report's figures and the ledger's.
    public private(set) var regions: [MonthCloseKey: MonthCloseFigures] = [:]
    /// The product ids of Apple's in-app purchase rows in the compared months (of any app).
    public private(set) var appleProducts: Set<String> = []

    /// - Parameters:
    ///   - timeZone: the reports' time zone: decides the day of a purchase or refund.
    ///   - rows: every stored Financial Report row.
    ///   - asOf: "now" of the report (epoch ms): only fiscal months that ended by then are compared.
    ///   - app: which products are this app's (a developer's reports cover all its apps).
    ///   - pricer: prices the ledger's expected proceeds.
    public init(
        timeZone: TimeZone, rows: [FinancialReportRow], asOf: Int64, app: SalesReportApp, pricer: ProceedsPricer
    ) {
        self.timeZone = timeZone
        self.app = app
        self.pricer = pricer
        let firstOpenDay = Timestamp.dayAndSecond(asOf, in: timeZone).day
        let compared = Set(rows.map(\.period).filter { $0.end < firstOpenDay })
        periods = compared.sorted()
        for row in rows where compared.contains(row.period) {
            let region = MonthCloseKey(period: row.period, currency: row.regionCurrency)
            regions[region, default: MonthCloseFigures()].addApple(row)
            guard row.isInAppPurchase else { continue }
            appleProducts.insert(row.productID)
            let key = FinancialKey(
                period: row.period, productID: row.productID, country: row.countryCode,
                currency: row.customerPrice.currency)
            regionOf[
                FinancialKey(period: row.period, productID: "", country: row.countryCode, currency: key.currency)] =
                row.regionCurrency
            var line = entries[key] ?? FinancialReconciliationLine(key: key)
            line.appleUnits = Money.sum(line.appleUnits, row.quantity)
            line.appleAmount = Money.sum(line.appleAmount, row.customerAmount?.milliunits ?? 0)
            let proceeds = line.appleProceeds ?? Money(milliunits: 0, currency: row.regionCurrency)
            line.appleProceeds = Money(
                milliunits: Money.sum(proceeds.milliunits, row.extendedPartnerShare.milliunits),
                currency: proceeds.currency)
            entries[key] = line
        }
    }

    /// Adds one transaction's ledger side: its sale in the month of its purchase, its return in the
    /// month of its refund (``LedgerEvents``).
    public mutating func add(_ facts: TransactionFacts) {
        guard !periods.isEmpty else { return }
        add(
            LedgerEvents.of(facts, timeZone: timeZone, pricer: pricer), products: facts.group.records.map(\.productID))
    }

    /// Adds a transaction's events (their proceeds priced as this reconciliation's pricer prices them), and the
    /// product ids of its ledger rows (which say which of Apple's rows are this app's).
    public mutating func add(_ events: [LedgerEvent], products: some Sequence<String>) {
        guard !periods.isEmpty else { return }
        ledgerProducts.formUnion(products)
        for event in events { add(event) }
    }

    /// Adds one event: in a compared fiscal month, to its key's ledger side and its region's.
    package mutating func add(_ event: LedgerEvent) {
        guard let period = periods.first(where: { $0.contains(event.day) }) else { return }
        addLedger(
            period, productID: event.productID, transactionID: event.transactionID, country: event.country,
            currency: event.currency, units: event.units, amount: event.amount, proceeds: event.proceeds,
            rate: event.rate)
    }

    private mutating func addLedger(
        _ period: FiscalPeriod, productID: String, transactionID: String, country: String, currency: String,
        units: Int64, amount: Int64, proceeds: Money?, rate: Int64
    ) {
        let key = FinancialKey(period: period, productID: productID, country: country, currency: currency)
        var line = entries[key] ?? FinancialReconciliationLine(key: key)
        line.ledgerUnits = Money.sum(line.ledgerUnits, units)
        line.ledgerAmount = Money.sum(line.ledgerAmount, amount)
        entries[key] = line
        transactions[key, default: []].insert(transactionID)
        let regionCurrency =
            regionOf[FinancialKey(period: period, productID: "", country: country, currency: currency)] ?? currency
        regions[MonthCloseKey(period: period, currency: regionCurrency), default: MonthCloseFigures()].addLedger(
            units: units, amount: Money(milliunits: amount, currency: currency), proceeds: proceeds, rate: rate,
            regionCurrency: regionCurrency)
    }

    /// Every key of the compared months present on either side, in key order: Apple's side this app's rows only.
    public func lines() -> [FinancialReconciliationLine] {
        let owned = entries.keys.filter {
            app.owns(productID: $0.productID, parentIdentifier: nil, ledgerProducts: ledgerProducts)
        }
        return owned.sorted().map { key in
            var line = entries[key] ?? FinancialReconciliationLine(key: key)
            line.transactionIDs = (transactions[key] ?? []).sorted()
            return line
        }
    }
}
