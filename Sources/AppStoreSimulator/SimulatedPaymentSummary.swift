import IAPRecon

/// The payment summary App Store Connect offers beside a fiscal month's Financial Reports
/// (`financial_report.csv`), for the simulator's reports of that month: what each region earned,
/// the tax Apple withheld, what it owed, and what it paid into a US dollar bank account.
///
/// Layout as Apple writes it (`Tests/IAPReconTests/Fixtures/apple-finance/financial_report.csv`): a
/// title line naming the fiscal month, a blank row, the header, one row per region (by region code),
/// a blank row, the total paid (`"1234.56" USD`) and the bank it was paid to. Each region earns the
/// sum of its report's `Extended Partner Share`; Japan's withholding tax is taken out
/// (``withholdingBasisPoints``); the total owed is converted at the region's exchange rate, printed
/// with five decimals as Apple does, and rounded to the cent; the footer is the sum of the regions'
/// proceeds. Exact: integers only.
public enum SimulatedPaymentSummary {
    /// Apple's file name for the summary.
    public static let fileName = "financial_report.csv"
    /// The bank account's currency.
    public static let bankCurrency = "USD"
    /// The header, in Apple's order (Apple ends it with a comma).
    public static let header = [
        "Region (Currency)", "Units Sold", "Earned", "Pre-Tax Subtotal", "Input Tax", "Adjustments",
        "Withholding Tax", "Total Owed", "Exchange Rate", "Proceeds", "Bank Account Currency",
    ]
    /// The rate from each region currency to US dollars: sample rates, written as Apple prints them.
    public static let exchangeRatesToUSD: [String: String] = [
        "AUD": "0.65418", "CAD": "0.72146", "CHF": "1.24873", "EUR": "1.16247", "GBP": "1.33842",
        "JPY": "0.00664", "USD": "1.00000",
    ]
    /// Tax Apple withholds at the source, in basis points of what a region earned, by region code.
    ///
    /// Japan's 20.42 % (income tax of 20 % plus the 2.1 % reconstruction surtax on it) on payments to
    /// a developer without a tax-treaty form on file; Apple's own summary withholds 37 JPY of 179.
    public static let withholdingBasisPoints: [String: Int64] = ["JP": 2_042]

    /// One region's row.
    public struct Line: Sendable, Hashable {
        public var region: AppleRegion
        /// Units sold less units returned.
        public var units: Int64
        /// Milliunits of the region currency: the report's `Total_Amount`.
        public var earned: Int64
        /// Milliunits of the region currency, negative.
        public var withholdingTax: Int64
        public var totalOwed: Int64 { earned + withholdingTax }
        /// As printed: five decimals.
        public var exchangeRate: String
        /// Milliunits of ``SimulatedPaymentSummary/bankCurrency``, rounded to the cent.
        public var proceeds: Int64
    }

    /// The rows of `reports`, one per region.
    ///
    /// - Throws: ``SimulatorError/invalidSeed(_:)`` for a region currency without an exchange rate.
    public static func lines(for reports: [SimulatedFinancialReport]) throws(SimulatorError) -> [Line] {
        var lines: [Line] = []
        for report in reports.sorted(by: { $0.region < $1.region }) {
            let region = report.region
            guard let rate = exchangeRatesToUSD[region.currency], let scaled = decimal(rate) else {
                throw .invalidSeed("no exchange rate from \(region.currency) to \(bankCurrency)")
            }
            let earned = report.earned
            var withholding: Int64 = 0
            if let share = withholdingBasisPoints[region.code], earned > 0 {
                withholding = -round(Int128(earned) * Int128(share), over: 10_000, currency: region.currency)
            }
            let owed = earned + withholding
            let proceeds = round(Int128(owed) * scaled.digits, over: scaled.divisor, currency: bankCurrency)
            lines.append(
                Line(
                    region: region, units: report.netUnits, earned: earned, withholdingTax: withholding,
                    exchangeRate: rate, proceeds: proceeds))
        }
        return lines
    }

    /// The summary of `reports` (one fiscal month's), as Apple writes it.
    ///
    /// - Throws: ``SimulatorError/invalidSeed(_:)`` when there is no report, the reports cover
    ///   different months, or a region currency has no exchange rate.
    public static func text(for reports: [SimulatedFinancialReport], paidTo bank: String = "EXAMPLE BANK -****1299")
        throws(SimulatorError) -> String
    {
        guard let period = reports.first?.period, reports.allSatisfy({ $0.period == period }) else {
            throw .invalidSeed("a payment summary needs the Financial Reports of one fiscal month")
        }
        let month = period.month
        let empty = String(repeating: ",", count: 12)
        let monthName = FiscalMonth.monthNames[month.month - 1]
        var text = [
            "\"App Store Connect - Payments and Financial Reports\t(\(monthName), \(month.year))\"" + empty, empty,
            header.joined(separator: ",") + ",",
        ]
        let lines = try lines(for: reports)
        for line in lines {
            let currency = line.region.currency
            let cells = [
                String(line.units), amount(line.earned, currency), amount(line.earned, currency), "0", "0",
                amount(line.withholdingTax, currency), amount(line.totalOwed, currency), line.exchangeRate,
                amount(line.proceeds, bankCurrency), bankCurrency,
            ]
            text.append(line.region.label + "," + cells.map { "\"\($0)\"" }.joined(separator: ",") + ",")
        }
        let total = lines.reduce(0) { $0 + $1.proceeds }
        text.append(empty)
        text.append(",,,,,,,,,,\"\(Money(milliunits: total, currency: bankCurrency).formatted)\" \(bankCurrency),,")
        text.append(",,,,,,,,,,Paid to \(bank),,")
        return text.joined(separator: "\n") + "\n"
    }

    /// An amount as Apple writes it in the summary: `0` for nothing, else the currency's decimals.
    static func amount(_ milliunits: Int64, _ currency: String) -> String {
        milliunits == 0 ? "0" : Money(milliunits: milliunits, currency: currency).formatted
    }

    /// `1.16247` as digits and divisor (116247, 100000).
    static func decimal(_ text: String) -> (digits: Int128, divisor: Int128)? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let digits = Int128(parts.joined()) else { return nil }
        var divisor: Int128 = 1
        for _ in 0..<(parts.count == 2 ? parts[1].count : 0) { divisor *= 10 }
        return (digits, divisor)
    }

    /// `numerator / denominator` milliunits, rounded half away from zero to `currency`'s minor unit.
    static func round(_ numerator: Int128, over denominator: Int128, currency: String) -> Int64 {
        var minorUnit: Int128 = 1
        for _ in 0..<(3 - (Currency.lookup(currency)?.decimals ?? 2)) { minorUnit *= 10 }
        let d = denominator * minorUnit
        let magnitude = (2 * (numerator < 0 ? -numerator : numerator) + d) / (2 * d)
        return Int64(clamping: (numerator < 0 ? -magnitude : magnitude) * minorUnit)
    }
}
