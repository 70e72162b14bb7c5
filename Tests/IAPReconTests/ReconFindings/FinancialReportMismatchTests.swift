import Foundation
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// `FINANCIAL_REPORT_MISMATCH` and the fiscal-month reconciliation behind it.
///
/// Apple's fiscal October 2026 runs Sunday 2026-09-27 to Saturday 2026-10-31, as its reports print it
/// (https://developer.apple.com/help/app-store-connect/reference/financial-report-fields, `Start Date`, `End Date`).
@Suite struct FinancialReportMismatchTests {
    static let october = FiscalPeriod(start: 20_723, end: 20_757)
    static let november = FiscalPeriod(start: 20_758, end: 20_785)

    /// A verified, delivered purchase of gems100 in the USA on 2026-10-14 (Los Angeles), 9.99 USD.
    static func october(_ tx: String, at iso: String = "2026-10-14T18:00:00Z") -> TransactionGroup {
        let at = Timestamp.parse(iso) ?? 0
        return Fx.group(tx, [Fx.row("r-\(tx)", tx: tx, ago: Fx.asOf - at)])
    }

    static func apple(
        _ period: FiscalPeriod = october, units: Int64, product: String = "gems100", country: String = "US",
        price: Int64 = 9_990, share: Int64 = 6_990
    ) -> FinancialReportRow {
        FinancialReportRow(
            period: period, productID: product, productType: "IA1", countryCode: country, quantity: units,
            partnerShare: Fx.usd(share), extendedPartnerShare: Fx.usd(share * units),
            customerPrice: Fx.usd(units < 0 ? -price : price), isReturn: units < 0, line: 2)
    }

    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "two ledger sales in a fiscal month Apple's report counts once",
            groups: [october("1900002000"), october("1900002001")],
            finance: .init(rows: [apple(units: 1)]),
            expected: [ExpectedFinding(.financialReportMismatch, "", users: [], amount: Fx.usd(-9_990))]),
        DetectorCase(
            name: "a sale in Apple's report the ledger lacks",
            finance: .init(rows: [apple(units: 2)]),
            expected: [ExpectedFinding(.financialReportMismatch, "", users: [], amount: Fx.usd(19_980))]),
        DetectorCase(
            name: "near miss: Apple's report shows the sale",
            groups: [october("1900002100")], finance: .init(rows: [apple(units: 1)]), expected: []),
        DetectorCase(
            name: "near miss: a fiscal month not yet ended at the as-of is not compared",
            groups: [Fx.clean("1900002200")], finance: .init(rows: [apple(november, units: 5)]), expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }

    @Test func theFiscalMonthsAreApplesAsPrinted() throws {
        #expect(Self.october.start == SalesReportParser.day("09/27/2026"))
        #expect(Self.october.end == SalesReportParser.day("10/31/2026"))
        #expect(Self.november.start == SalesReportParser.day("11/01/2026"))
        #expect(Self.november.end == SalesReportParser.day("11/28/2026"))
        #expect(Self.october.month == FiscalMonth(year: 2026, month: 10))
        #expect(Self.november.month == FiscalMonth(year: 2026, month: 11))
    }

    /// "Returns count in the month Apple books them": a purchase in October refunded in November is a sale of
    /// October and a return of November, in the ledger as in Apple's reports.
    @Test func aReturnCountsInTheFiscalMonthOfTheRefund() throws {
        let bought = try #require(Timestamp.parse("2026-10-30T18:00:00Z"))
        let refunded = try #require(Timestamp.parse("2026-11-02T18:00:00Z"))
        let refund = Fx.serverAPI("1900002300", recordedAt: refunded) { entry in
            entry.purchaseDate = bought
            entry.cancellationDate = refunded
        }
        let group = Fx.group("1900002300", [Fx.row("r-1", tx: "1900002300", ago: Fx.asOf - bought)], [refund])
        let lateAsOf = try #require(Timestamp.parse("2026-12-01T00:00:00Z"))
        var context = Fx.context()
        context.asOf = lateAsOf
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        var reconciliation = FinancialReconciliation(
            timeZone: zone, rows: [Self.apple(units: 1), Self.apple(Self.november, units: -1)], asOf: lateAsOf,
            app: SalesReportApp(), pricer: ProceedsPricer(context: context, appleProceeds: nil))
        reconciliation.add(TransactionFacts(group, in: context))
        let lines = reconciliation.lines()
        #expect(lines.map(\.key.period) == [Self.october, Self.november])
        #expect(lines.map(\.ledgerUnits) == [1, -1])
        #expect(lines.map(\.ledgerAmount) == [9_990, -9_990])
        #expect(lines.allSatisfy { $0.matches })
    }
}
