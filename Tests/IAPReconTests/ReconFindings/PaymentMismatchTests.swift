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

/// `PAYMENT_MISMATCH`: Apple's payment summary beside the Financial Reports in the store.
@Suite struct PaymentMismatchTests {
    typealias F = FinancialReportMismatchTests

    /// Apple's payment summary of fiscal October 2026 with one USD region that earned `earned` (milliunits), and
    /// optionally a Japanese region.
    static func summary(earned: Int64, japan: Bool = false) -> PaymentSummary {
        func usd(_ milli: Int64) -> Money { Fx.usd(milli) }
        var regions = [
            PaymentRegion(
                region: "Americas", currency: "USD", unitsSold: 1, earned: usd(earned), preTaxSubtotal: usd(earned),
                inputTax: usd(0), adjustments: usd(0), withholdingTax: usd(0), totalOwed: usd(earned),
                exchangeRate: "1.000000", proceeds: usd(earned), line: 4)
        ]
        if japan {
            func jpy(_ milli: Int64) -> Money { Money(milliunits: milli, currency: "JPY") }
            regions.append(
                PaymentRegion(
                    region: "Japan", currency: "JPY", unitsSold: 1, earned: jpy(100_000), preTaxSubtotal: jpy(100_000),
                    inputTax: jpy(0), adjustments: jpy(0), withholdingTax: jpy(-20_000), totalOwed: jpy(80_000),
                    exchangeRate: "0.006612", proceeds: usd(530), line: 5))
        }
        let paid = regions.reduce(Int64(0)) { $0 + $1.proceeds.milliunits }
        return PaymentSummary(month: FiscalMonth(year: 2026, month: 10), regions: regions, totalPaid: usd(paid))
    }

    static let cases: [DetectorCase] = [
        DetectorCase(
            name: "the summary's Earned is not what the Financial Report adds up to",
            groups: [F.october("1900003000")],
            finance: .init(rows: [F.apple(units: 1)], payments: [summary(earned: 7_000)]),
            expected: [ExpectedFinding(.paymentMismatch, "", users: [], amount: Fx.usd(10))]),
        DetectorCase(
            name: "a region paid with no Financial Report in the store",
            groups: [F.october("1900003100")],
            finance: .init(rows: [F.apple(units: 1)], payments: [summary(earned: 6_990, japan: true)]),
            expected: [
                ExpectedFinding(.paymentMismatch, "", users: [], amount: Money(milliunits: 100_000, currency: "JPY"))
            ]),
        DetectorCase(
            name: "near miss: the summary pays what the Financial Report earned",
            groups: [F.october("1900003200")],
            finance: .init(rows: [F.apple(units: 1)], payments: [summary(earned: 6_990)]), expected: []),
    ]

    @Test(arguments: cases)
    func detects(_ testCase: DetectorCase) { testCase.check() }

    /// A payment summary names its fiscal month; the Financial Report prints the period.
    ///
    /// Fiscal October 2026 is the period whose middle day is in October, 2026-09-27 to 2026-10-31 (it starts in
    /// September).
    @Test func aSummaryIsMatchedWithTheReportOfTheMonthItNames() throws {
        let check = PaymentMismatchTests.cases[0].run()
        #expect(check.first?.detail.contains("fiscal October 2026") == true, "\(check)")
        #expect(
            check.first?.detail
                == "Apple's payment summary for fiscal October 2026 says Americas (USD) earned 7.00 USD; "
                + "the Financial Reports in the store add up to 6.99 USD")
    }
}
