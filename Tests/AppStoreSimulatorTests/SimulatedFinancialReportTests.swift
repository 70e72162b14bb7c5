import Foundation
import IAPReconTestSupport
import Testing

@testable import AppStoreSimulator
@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// The simulator's Financial Reports: Apple's layout, read back by the importer's own parser, with
/// VAT-correct partner shares, for one fiscal month and nothing outside it.
@Suite struct SimulatedFinancialReportTests {
    let dir = TemporaryDirectory("sim-financial")
    static let zone = TimeZone(identifier: "America/Los_Angeles") ?? .current
    static let october = FiscalPeriod(start: day("2026-09-27"), end: day("2026-10-31"))
    static let november = FiscalPeriod(start: day("2026-11-01"), end: day("2026-11-28"))

    static func day(_ text: String) -> Int { Int((Timestamp.parse(text + "T00:00:00Z") ?? 0) / 86_400_000) }
    static func at(_ text: String) -> Int64 { Timestamp.parse(text) ?? 0 }

    static func sale(
        _ id: String, _ product: String, _ storefront: String, _ currency: String, _ price: Int64, at date: String,
        quantity: Int? = nil, bundle: String? = nil, environment: String = "Production", refunded: String? = nil,
        prorated: Int? = nil, family: Bool = false
    ) -> SimulatorTransaction {
        SimulatorTransaction(
            transactionId: id, productId: product, bundleId: bundle, environment: environment,
            purchaseDate: at(date), quantity: quantity, type: "Consumable", price: price, currency: currency,
            storefront: storefront, revocationDate: refunded.map(at), revocationReason: refunded == nil ? nil : 1,
            revocationType: refunded == nil ? nil : prorated == nil ? "REFUND_FULL" : "REFUND_PRORATED",
            revocationPercentage: prorated, inAppOwnershipType: family ? "FAMILY_SHARED" : nil)
    }

    /// Fiscal October 2026 (2026-09-27 to 2026-10-31, Pacific time) and around it.
    static let seed = SimulatorSeed(
        bundleId: "com.example.app",
        transactions: [
            sale("1", "coins", "FRA", "EUR", 4_990, at: "2026-10-05T10:00:00-07:00"),
            sale("2", "coins", "FRA", "EUR", 9_980, at: "2026-10-06T10:00:00-07:00", quantity: 2),
            sale("3", "coins", "DEU", "EUR", 4_990, at: "2026-10-07T10:00:00-07:00"),
            sale("4", "coins", "GBR", "GBP", 790, at: "2026-10-08T10:00:00-07:00"),
            sale("5", "coins", "USA", "USD", 990, at: "2026-10-09T10:00:00-07:00"),
            sale("6", "coins", "JPN", "JPY", 160_000, at: "2026-10-10T10:00:00+09:00"),
            sale("7", "pass", "FRA", "EUR", 4_990, at: "2026-10-11T10:00:00-07:00"),
            // Saturday 23:30 Pacific time, already Sunday in UTC: still October.
            sale("8", "coins", "USA", "USD", 990, at: "2026-10-31T23:30:00-07:00"),
            // Sunday 00:30 Pacific time: November's.
            sale("9", "coins", "USA", "USD", 990, at: "2026-11-01T00:30:00-07:00"),
            // Bought in September's fiscal month, refunded in October's: only the return is October's.
            sale(
                "10", "coins", "DEU", "EUR", 4_990, at: "2026-09-20T10:00:00-07:00",
                refunded: "2026-10-12T10:00:00-07:00"),
            // Bought in October, half refunded in November: October has the sale only.
            sale(
                "11", "coins", "USA", "USD", 990, at: "2026-10-13T10:00:00-07:00",
                refunded: "2026-11-02T10:00:00-08:00", prorated: 50_000),
            // Never Apple's sales of this account: a sandbox purchase, a family member's access, another
            // app not passed as extra.
            sale("12", "coins", "USA", "USD", 990, at: "2026-10-14T10:00:00-07:00", environment: "Sandbox"),
            sale("13", "coins", "USA", "USD", 990, at: "2026-10-14T11:00:00-07:00", family: true),
            sale("14", "coins", "USA", "USD", 990, at: "2026-10-14T12:00:00-07:00", bundle: "com.example.other"),
        ])

    func reports(_ period: FiscalPeriod, extra: [SimulatorTransaction] = []) throws -> [SimulatedFinancialReport] {
        try SimulatedFinancialReport.reports(
            for: Self.seed, period: period, timeZone: Self.zone, extra: extra, reducedCommission: ["pass"])
    }

    @Test func eachRegionsReportParsesAndAddsUpToItsTrailer() throws {
        let reports = try reports(Self.october)
        #expect(reports.map(\.region.code) == ["EU", "GB", "JP", "US"])
        #expect(
            reports.map { $0.fileName() } == [
                "85012345_1026_EU.txt", "85012345_1026_GB.txt", "85012345_1026_JP.txt", "85012345_1026_US.txt",
            ])
        for report in reports {
            let text = report.text
            #expect(
                text.split(separator: "\n").allSatisfy {
                    $0.hasPrefix("Total_") || $0.split(separator: "\t", omittingEmptySubsequences: false).count == 22
                })
            // The importer's parser refuses a report whose rows do not add up to its trailer.
            let parsed = try FinancialReportParser.parse(try dir.write(report.fileName(), text))
            #expect(parsed.period == Self.october)
            #expect(parsed.region == report.region.code)
            #expect(parsed.rows.count == report.rows.count)
            #expect(parsed.rows.reduce(0) { $0 + $1.extendedPartnerShare.milliunits } == report.earned)
            #expect(parsed.rows.allSatisfy { $0.partnerShare.currency == report.region.currency })
        }
        let eu = try #require(reports.first)
        #expect(
            eu.text == """
                Start Date\tEnd Date\tUPC\tISRC/ISBN\tVendor Identifier\tQuantity\tPartner Share\tExtended Partner Share\tPartner Share Currency\tSales or Return\tApple Identifier\tArtist/Show/Developer/Author\tTitle\tLabel/Studio/Network/Developer/Publisher\tGrid\tProduct Type Identifier\tISAN/Other Identifier\tCountry Of Sale\tPre-order Flag\tPromo Code\tCustomer Price\tCustomer Currency
                09/27/2026\t10/31/2026\t\t\tcoins\t1\t2.94\t2.94\tEUR\tS\t\(SimulatedFinancialReport.appleIdentifier("coins"))\tExample Developer\tcoins\t\t\tIA1\t\tDE\t\t\t4.99\tEUR
                09/27/2026\t10/31/2026\t\t\tcoins\t-1\t2.94\t-2.94\tEUR\tR\t\(SimulatedFinancialReport.appleIdentifier("coins"))\tExample Developer\tcoins\t\t\tIA1\t\tDE\t\t\t-4.99\tEUR
                09/27/2026\t10/31/2026\t\t\tcoins\t3\t2.91\t8.73\tEUR\tS\t\(SimulatedFinancialReport.appleIdentifier("coins"))\tExample Developer\tcoins\t\t\tIA1\t\tFR\t\t\t4.99\tEUR
                09/27/2026\t10/31/2026\t\t\tpass\t1\t3.53\t3.53\tEUR\tS\t\(SimulatedFinancialReport.appleIdentifier("pass"))\tExample Developer\tpass\t\t\tIA1\t\tFR\t\t\t4.99\tEUR
                Total_Rows\t4
                Total_Amount\t12.26
                Total_Units\t5

                """)
    }

    /// One storefront's price and the partner share Apple pays for it.
    struct ShareCase: Sendable, CustomTestStringConvertible {
        var storefront: String
        var currency: String
        var price: Int64
        var reduced = false
        var share: Int64
        var testDescription: String { "\(price) \(currency) in \(storefront)\(reduced ? " at 15 %" : "")" }
    }

    /// Partner share = customer price ÷ (1 + VAT) × 0.70 (0.85 at a 15 % commission), to the minor unit.
    @Test(arguments: [
        ShareCase(storefront: "FRA", currency: "EUR", price: 4_990, share: 2_910),  // 4.99 / 1.20 × 0.70 = 2.9108
        ShareCase(storefront: "DEU", currency: "EUR", price: 4_990, share: 2_940),  // 4.99 / 1.19 × 0.70 = 2.9353
        ShareCase(storefront: "GBR", currency: "GBP", price: 790, share: 460),  // 0.79 / 1.20 × 0.70 = 0.4608
        ShareCase(storefront: "USA", currency: "USD", price: 990, share: 690),  // no VAT: 0.99 × 0.70 = 0.693
        ShareCase(storefront: "JPN", currency: "JPY", price: 160_000, share: 102_000),  // 160 / 1.10 × 0.70 = 101.8
        ShareCase(storefront: "FRA", currency: "EUR", price: 4_990, reduced: true, share: 3_530),  // × 0.85 = 3.5346
        ShareCase(storefront: "FRA", currency: "EUR", price: -4_990, share: 2_910),  // a return: the same share
    ])
    func partnerSharesAreVATCorrect(_ c: ShareCase) throws {
        #expect(
            try PartnerShare.perUnit(
                price: c.price, currency: c.currency, storefront: c.storefront, reducedCommission: c.reduced)
                == c.share)
    }

    @Test func aStorefrontWithoutATaxRateIsRefusedNotGuessed() {
        #expect(throws: SimulatorError.self) {
            try PartnerShare.perUnit(price: 990, currency: "BRL", storefront: "BRA")
        }
    }

    /// A fiscal month's report holds what happened in it, days in Pacific time: no more, no less.
    @Test func aReportTellsOnlyWhatHappenedInItsFiscalMonth() throws {
        let october = try reports(Self.october)
        let us = try #require(october.first { $0.region.code == "US" })
        // 5 (October 9), 8 (October 31, 23:30 Pacific) and 11 (refunded in November): three sales.
        #expect(us.rows.map(\.quantity) == [3])
        #expect(us.rows.map(\.customerPrice) == [990])
        let november = try reports(Self.november)
        let usNovember = try #require(november.first { $0.region.code == "US" })
        // 9 (November 1, 00:30 Pacific) sold, and 11's half refunded.
        #expect(
            usNovember.rows.map { [$0.quantity, $0.customerPrice, $0.partnerShare] } == [
                [1, 990, 690], [-1, -495, 350],
            ])
        #expect(usNovember.unitsSold == 1)
        #expect(november.map(\.region.code) == ["US"])
    }

    @Test func theDevelopersOtherAppsSalesCountWhenGiven() throws {
        let other = Self.sale(
            "20", "stickers", "GBR", "GBP", 1_580, at: "2026-10-20T10:00:00-07:00", quantity: 2,
            bundle: "com.example.stickers")
        let gb = try #require(try reports(Self.october, extra: [other]).first { $0.region.code == "GB" })
        #expect(gb.rows.map(\.productID) == ["coins", "stickers"])
        #expect(gb.earned == 460 + 920)
    }

    @Test func thePaymentSummaryParsesWithholdsInJapanAndFoots() throws {
        let reports = try reports(Self.october)
        let text = try SimulatedPaymentSummary.text(for: reports)
        #expect(text.hasPrefix("\"App Store Connect - Payments and Financial Reports\t(October, 2026)\",,,,,,,,,,,,\n"))
        #expect(text.hasSuffix(",,,,,,,,,,Paid to EXAMPLE BANK -****1299,,\n"))
        let summary = try PaymentSummaryParser.parse(try dir.write("financial_report.csv", text))
        #expect(summary.month == FiscalMonth(year: 2026, month: 10))
        #expect(
            summary.regions.map(\.label) == [
                "Euro-Zone (EUR)", "United Kingdom (GBP)", "Japan (JPY)", "Americas (USD)",
            ])
        for (region, report) in zip(summary.regions, reports) {
            #expect(region.earned.milliunits == report.earned)
            #expect(region.unitsSold == report.netUnits)
            #expect(region.proceeds.currency == "USD")
            #expect(region.exchangeRate.split(separator: ".").last?.count == 5)
            #expect(region.totalOwed.milliunits == region.earned.milliunits + region.withholdingTax.milliunits)
        }
        // Japan alone withholds: 20.42 % of 102 JPY is 20.83, so 21 JPY.
        #expect(summary.regions.map(\.withholdingTax.milliunits) == [0, 0, -21_000, 0])
        let japan = try #require(summary.regions.first { $0.currency == "JPY" })
        #expect(japan.totalOwed.milliunits == 81_000)
        // 81 JPY × 0.00664 = 0.53784 USD: 0.54.
        #expect(japan.proceeds.milliunits == 540)
        // The footer is the sum of the regions' proceeds (the parser refuses it otherwise).
        #expect(summary.totalPaid?.milliunits == summary.regions.reduce(0) { $0 + $1.proceeds.milliunits })
        #expect(
            text.contains("Japan (JPY),\"1\",\"102\",\"102\",\"0\",\"0\",\"-21\",\"81\",\"0.00664\",\"0.54\",\"USD\","))
    }

    /// Apple's calendar: Sunday to Saturday, back to back, five then four then four weeks a quarter.
    @Test func theFiscalCalendarIsApplesFiveFourFour() throws {
        let periods = AppleFiscalCalendar.periods
        #expect(periods.count == AppleFiscalCalendar.table.count)
        for (index, period) in periods.enumerated() {
            // 1970-01-01 was a Thursday: day 3 is a Sunday.
            #expect((period.start - 3) % 7 == 0, "\(period.text)")
            #expect(period.end - period.start + 1 == (index % 3 == 0 ? 35 : 28), "\(period.text)")
            if index > 0 { #expect(period.start == periods[index - 1].end + 1) }
            #expect(
                period.month
                    == FiscalMonth(year: index < 3 ? 2025 : index < 15 ? 2026 : 2027, month: (index + 9) % 12 + 1))
        }
        #expect(AppleFiscalCalendar.period(containing: Self.day("2026-10-31")) == Self.october)
        #expect(AppleFiscalCalendar.period(containing: Self.day("2026-11-01")) == Self.november)
        #expect(AppleFiscalCalendar.lastPeriod(endedBefore: Self.day("2026-11-20")) == Self.october)
    }
}
