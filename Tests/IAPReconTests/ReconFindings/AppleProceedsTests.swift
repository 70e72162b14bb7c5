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

/// Apple's proceeds where its reports state them (CONTRACT §5 `proceeds`): the Financial Report's partner share
/// (https://developer.apple.com/help/app-store-connect/reference/financial-report-fields), else the Sales Report's
/// developer proceeds, per unit and positive on refund rows too
/// (https://developer.apple.com/help/app-store-connect/reference/summary-sales-report), else the catalog's, else an
/// estimate.
@Suite struct AppleProceedsTests {
    static let zone = TimeZone(identifier: "America/Los_Angeles") ?? .current
    typealias F = FinancialReportMismatchTests

    /// Apple's Sales Report row of 2026-10-14 for gems100 in the USA at 9.99 USD, with its developer proceeds.
    static func sale(units: Int64, proceeds: Int64 = 6_990) -> SalesReportRow {
        SalesReportRow(
            day: 20_740, productID: "gems100", productType: "IA1", countryCode: "US", storefront: "USA", units: units,
            customerPrice: Fx.usd(units < 0 ? -9_990 : 9_990), developerProceeds: Fx.usd(proceeds), line: 2)
    }

    func revenue(_ proceeds: AppleProceeds, _ groups: [TransactionGroup], catalog: [String: [CatalogProduct]]? = nil)
        -> [RevenueRow]
    {
        var context = Fx.context(catalog: catalog ?? Fx.catalog)
        context.asOf = Fx.asOf
        var builder = RevenueBuilder(timeZone: Self.zone, context: context, appleProceeds: proceeds)
        for group in groups { builder.add(TransactionFacts(group, in: context)) }
        return builder.rows()
    }

    @Test func theFinancialReportWinsOverTheSalesReportWhichWinsOverTheEstimate() throws {
        var proceeds = AppleProceeds(timeZone: Self.zone)
        proceeds.add(sales: [Self.sale(units: 1, proceeds: 6_800)])
        let at = try #require(Timestamp.parse("2026-10-14T18:00:00Z"))
        #expect(
            proceeds.perUnit(productID: "gems100", storefront: "USA", unitPrice: Fx.usd(9_990), at: at)?.source
                == .salesReport)
        proceeds.add(financial: [F.apple(units: 1, share: 6_990)])
        let stated = try #require(
            proceeds.perUnit(productID: "gems100", storefront: "USA", unitPrice: Fx.usd(9_990), at: at))
        #expect(stated.proceeds == Fx.usd(6_990) && stated.source == .financialReport)
        // Another price, country or day is another sale: no figure of Apple's covers it.
        #expect(proceeds.perUnit(productID: "gems100", storefront: "USA", unitPrice: Fx.usd(4_990), at: at) == nil)
        #expect(proceeds.perUnit(productID: "gems100", storefront: "CAN", unitPrice: Fx.usd(9_990), at: at) == nil)
    }

    /// A refund row's `Developer Proceeds` is positive like its sale's: it never becomes a figure of its own.
    @Test func aSalesReportsRefundRowDoesNotPriceASale() throws {
        var proceeds = AppleProceeds(timeZone: Self.zone)
        proceeds.add(sales: [Self.sale(units: -1)])
        let at = try #require(Timestamp.parse("2026-10-14T18:00:00Z"))
        #expect(proceeds.perUnit(productID: "gems100", storefront: "USA", unitPrice: Fx.usd(9_990), at: at) == nil)
        #expect(Self.sale(units: -1).proceedsAmount == Fx.usd(-6_990))
    }

    /// A refund takes back what its sale paid, on the refund's day; a day mixing sources names the weakest.
    @Test func aRefundTakesBackTheSalesProceedsOnItsDay() throws {
        var proceeds = AppleProceeds(timeZone: Self.zone)
        proceeds.add(sales: [Self.sale(units: 1, proceeds: 6_990)])
        let refundedAt = try #require(Timestamp.parse("2026-10-20T18:00:00Z"))
        let refund = Fx.serverAPI("1900004000", recordedAt: refundedAt) { entry in
            entry.purchaseDate = Timestamp.parse("2026-10-14T18:00:00Z") ?? 0
            entry.cancellationDate = refundedAt
        }
        let refunded = Fx.group(
            "1900004000",
            [Fx.row("r-1", tx: "1900004000", ago: Fx.asOf - (Timestamp.parse("2026-10-14T18:00:00Z") ?? 0))], [refund])
        let other = F.october("1900004001", at: "2026-10-14T20:00:00Z")
        let rows = revenue(proceeds, [refunded, other, F.october("1900004002", at: "2026-10-20T19:00:00Z")])
        #expect(rows.map(\.date) == ["2026-10-14", "2026-10-20"])
        #expect(rows[0].proceeds == 13_980 && rows[0].proceedsSource == .salesReport)
        // 2026-10-20: the refund takes 6.99 back, the new sale (no report that day) is estimated at 9.99 × 0.70.
        #expect(rows[1].proceeds == -6_990 + 6_990 && rows[1].proceedsSource == .estimate)
        #expect(rows[1].estimatedProceeds == 0)
    }
}
