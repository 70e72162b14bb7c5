import Foundation
import Testing

@testable import ReconFindings
@testable import ReconModel

/// The exact rule of CONTRACT §5.1, one sale at a time: linear in time with cumulative rounding, by calendar month
/// in the report's time zone; refunds release the deferred part and reverse the recognized part.
///
/// The service periods are what Apple states: `expiresDate` of a signed transaction
/// (https://developer.apple.com/documentation/appstoreserverapi/expiresdate), `revocationDate`
/// (https://developer.apple.com/documentation/appstoreserverapi/revocationdate) and `revocationPercentage`
/// (https://developer.apple.com/documentation/appstoreserverapi/revocationpercentage, thousandths of a percent).
@Suite struct RecognitionScheduleTests {
    static let utc = TimeZone(identifier: "UTC") ?? .current
    static let losAngeles = TimeZone(identifier: "America/Los_Angeles") ?? .current

    static func at(_ text: String) -> Int64 { Timestamp.parse(text) ?? 0 }

    static func usd(_ text: String) -> Money {
        (try? Money.parse(text, currency: "USD")) ?? Money(milliunits: 0, currency: "USD")
    }

    static func sale(
        _ id: String = "2000000100000001", product: String = "pro.monthly", amount: Money, start: String,
        end: String?, source: RecognitionSale.PeriodSource = .apple, refunds: [RecognitionSale.Refund] = []
    ) -> RecognitionSale {
        RecognitionSale(
            transactionID: id, originalTransactionID: id, userID: "u1", productID: product, amount: amount,
            start: at(start), end: end.map(at), periodSource: source, refunds: refunds)
    }

    /// `month product opening billings recognized released reversed closing net`, amounts as the CSV writes them.
    static func lines(_ sales: [RecognitionSale], asOf: String, zone: TimeZone = utc) -> [String] {
        var roll = DeferredRevenueRollForward(timeZone: zone, asOf: at(asOf))
        for sale in sales { roll.add(sale) }
        return roll.rows().map { row in
            let values = [
                row.opening, row.billings, row.recognized, row.refundsReleased, row.refundsReversed, row.closing,
                row.netRevenue,
            ]
            let money = values.map { Money(milliunits: $0, currency: row.currency).formatted }
            return ([CalendarMonths.text(row.month), row.productID] + money).joined(separator: " ")
        }
    }

    @Test func monthlyPlanAcrossAMonthBoundaryRoundsHalfAwayFromZeroAndAddsUpExactly() {
        // 9.99 over 2026-11-16 → 2026-12-16 (30 days): November holds 15 of them, 4.995 → 5.00; December the rest.
        let monthly = Self.sale(amount: Self.usd("9.99"), start: "2026-11-16T00:00:00Z", end: "2026-12-16T00:00:00Z")
        #expect(
            Self.lines([monthly], asOf: "2027-01-01T00:00:00Z") == [
                "2026-11 pro.monthly 0.00 9.99 5.00 0.00 0.00 4.99 5.00",
                "2026-12 pro.monthly 4.99 0.00 4.99 0.00 0.00 0.00 4.99",
            ])
    }

    @Test func yearlyPlanRecognizesThirteenMonthsThatAddUpToItsAmount() {
        let yearly = Self.sale(
            product: "pro.yearly", amount: Self.usd("49.99"), start: "2026-11-20T13:05:00Z",
            end: "2027-11-20T13:05:00Z")
        var roll = DeferredRevenueRollForward(timeZone: Self.utc, asOf: Self.at("2028-01-01T00:00:00Z"))
        roll.add(yearly)
        let rows = roll.rows()
        #expect(rows.count == 13)
        #expect(rows.map(\.recognized).reduce(0, +) == 49_990)
        #expect(rows.allSatisfy { $0.recognized % 10 == 0 })
        #expect(rows.first?.closing == 49_990 - (rows.first?.recognized ?? 0))
        #expect(rows.last?.closing == 0)
        // December 2026 is 31 of 365 days: 49.99 × 31 / 365 = 4.2457… → 4.25 at its end, less November's.
        let november = RecognitionSchedule.linear(yearly, at: Self.at("2026-12-01T00:00:00Z"))
        let december = RecognitionSchedule.linear(yearly, at: Self.at("2027-01-01T00:00:00Z"))
        #expect(rows[1].recognized == december - november)
    }

    @Test func aPurchaseLateOnTheLastEveningInCaliforniaIsNovemberThereAndDecemberInUTC() {
        // 2026-11-30T23:30:00-08:00 is 2026-12-01T07:30:00Z: the month is the report's time zone's.
        let point = Self.sale(
            product: "coins.100", amount: Self.usd("0.99"), start: "2026-11-30T23:30:00-08:00", end: nil,
            source: .pointInTime)
        #expect(
            Self.lines([point], asOf: "2026-12-15T00:00:00Z", zone: Self.losAngeles) == [
                "2026-11 coins.100 0.00 0.99 0.99 0.00 0.00 0.00 0.99"
            ])
        #expect(
            Self.lines([point], asOf: "2026-12-15T00:00:00Z", zone: Self.utc) == [
                "2026-12 coins.100 0.00 0.99 0.99 0.00 0.00 0.00 0.99"
            ])
    }

    @Test func aRefundMidPeriodReleasesTheDeferredPartAndReversesTheRecognizedPart() {
        // 12.00 over November (30 days), refunded after 10 days: 4.00 recognized, 8.00 deferred.
        let refunded = Self.sale(
            amount: Self.usd("12.00"), start: "2026-11-01T00:00:00Z", end: "2026-12-01T00:00:00Z",
            refunds: [.init(at: Self.at("2026-11-11T00:00:00Z"), kind: .full)])
        #expect(
            Self.lines([refunded], asOf: "2027-01-01T00:00:00Z") == [
                "2026-11 pro.monthly 0.00 12.00 4.00 8.00 4.00 0.00 0.00"
            ])
        let totals = RecognitionSchedule.totals(refunded, by: Self.at("2027-01-01T00:00:00Z"))
        #expect(totals.netRecognized == 0 && totals.refunded == 12_000 && totals.deferred == 0)
    }

    @Test(arguments: [
        // revocationPercentage 50 000 (50 %): 6.00 comes out of the 8.00 deferred, the other 2.00 is recognized.
        (50_000, "2026-11 pro.monthly 0.00 12.00 6.00 6.00 0.00 0.00 6.00", Int64(6_000)),
        // 83 333 (83.333 %): 10.00, more than the 8.00 deferred: the other 2.00 is reversed.
        (83_333, "2026-11 pro.monthly 0.00 12.00 4.00 8.00 2.00 0.00 2.00", Int64(10_000)),
    ])
    func aProratedRefundComesOutOfTheDeferredBalanceFirst(share: Int, line: String, refunded: Int64) {
        let sale = Self.sale(
            amount: Self.usd("12.00"), start: "2026-11-01T00:00:00Z", end: "2026-12-01T00:00:00Z",
            refunds: [.init(at: Self.at("2026-11-11T00:00:00Z"), kind: .prorated(thousandthsOfPercent: share))])
        #expect(Self.lines([sale], asOf: "2027-01-01T00:00:00Z") == [line])
        let totals = RecognitionSchedule.totals(sale, by: Self.at("2027-01-01T00:00:00Z"))
        // Over the sale's life: recognized − reversed = amount − refunded.
        #expect(totals.refunded == refunded)
        #expect(totals.netRecognized == 12_000 - refunded)
    }

    @Test func anUpgradeReleasesWhatIsDeferredAndReversesNothing() {
        let upgraded = Self.sale(
            amount: Self.usd("12.00"), start: "2026-11-01T00:00:00Z", end: "2026-12-01T00:00:00Z",
            refunds: [.init(at: Self.at("2026-11-11T00:00:00Z"), kind: .upgrade)])
        #expect(
            Self.lines([upgraded], asOf: "2027-01-01T00:00:00Z") == [
                "2026-11 pro.monthly 0.00 12.00 4.00 8.00 0.00 0.00 4.00"
            ])
    }

    @Test func aReversedRefundPutsBackWhatItTookAndRecognitionGoesOn() {
        // Refunded on 2026-11-11, reversed on 2026-12-05 (after the period ended on 2026-12-01).
        let sale = Self.sale(
            amount: Self.usd("12.00"), start: "2026-11-01T00:00:00Z", end: "2026-12-01T00:00:00Z",
            refunds: [
                .init(
                    at: Self.at("2026-11-11T00:00:00Z"), kind: .full, reversedAt: Self.at("2026-12-05T00:00:00Z"))
            ])
        #expect(
            Self.lines([sale], asOf: "2027-01-01T00:00:00Z") == [
                "2026-11 pro.monthly 0.00 12.00 4.00 8.00 4.00 0.00 0.00",
                "2026-12 pro.monthly 0.00 0.00 8.00 -8.00 -4.00 0.00 12.00",
            ])
        let totals = RecognitionSchedule.totals(sale, by: Self.at("2027-01-01T00:00:00Z"))
        #expect(totals.netRecognized == 12_000 && totals.refunded == 0 && totals.deferred == 0)
    }

    @Test func aNonRenewingPassEndsAfterTheCatalogDuration() {
        // A three-month pass (catalog `duration` P3M) bought 2026-11-30: it ends 2027-02-28, the last day of the
        // shorter month.
        let start = Self.at("2026-11-30T10:00:00Z")
        let end = ServicePeriod.threeMonths.end(from: start, in: Self.utc)
        #expect(end == Self.at("2027-02-28T10:00:00Z"))
        #expect(ServicePeriod.oneWeek.end(from: start, in: Self.utc) == Self.at("2026-12-07T10:00:00Z"))
        #expect(ServicePeriod(iso: " p1y ") == .oneYear)
        #expect(ServicePeriod(iso: "P2W") == nil)
        let pass = Self.sale(
            product: "pass.quarter", amount: Self.usd("19.99"), start: "2026-11-30T10:00:00Z",
            end: "2027-02-28T10:00:00Z", source: .catalog)
        let rows = Self.lines([pass], asOf: "2027-04-01T00:00:00Z")
        #expect(rows.count == 4)
        #expect(rows.last == "2027-02 pass.quarter 6.09 0.00 6.09 0.00 0.00 0.00 6.09")
    }

    @Test func aMonthEndReportIsReproducedByALaterOneForThatMonth() {
        let monthly = Self.sale(amount: Self.usd("9.99"), start: "2026-11-16T00:00:00Z", end: "2026-12-16T00:00:00Z")
        let close = Self.lines([monthly], asOf: "2026-12-01T00:00:00Z")
        let later = Self.lines([monthly], asOf: "2026-12-20T00:00:00Z")
        #expect(close.first == later.first)
        #expect(close.first == "2026-11 pro.monthly 0.00 9.99 5.00 0.00 0.00 4.99 5.00")
        // The as-of's month is reported to the as-of: December as of its first instant has recognized nothing.
        #expect(close.last == "2026-12 pro.monthly 4.99 0.00 0.00 0.00 0.00 4.99 0.00")
    }

    @Test func yenHasNoMinorUnitToRoundTo() {
        let yen = Money(milliunits: 1_000_000, currency: "JPY")
        let sale = RecognitionSale(
            transactionID: "t", originalTransactionID: "t", userID: "u", productID: "p", amount: yen,
            start: Self.at("2026-11-01T00:00:00Z"), end: Self.at("2026-11-04T00:00:00Z"), periodSource: .apple)
        // 1000 × 1/3 = 333.33… → 333 yen.
        #expect(RecognitionSchedule.linear(sale, at: Self.at("2026-11-02T00:00:00Z")) == 333_000)
    }

    @Test func aClosedMonthIsRestatedWhenApplesLaterWordIsDatedInIt() {
        let monthly = Self.sale(amount: Self.usd("12.00"), start: "2026-11-01T00:00:00Z", end: "2026-12-01T00:00:00Z")
        var refunded = monthly
        refunded.refunds = [.init(at: Self.at("2026-11-11T00:00:00Z"), kind: .full)]
        func rows(_ sale: RecognitionSale, asOf: String) -> (rows: [DeferredRevenueRow], lastMonth: Int) {
            var roll = DeferredRevenueRollForward(timeZone: Self.utc, asOf: Self.at(asOf))
            roll.add(sale)
            return (roll.rows(), roll.lastMonth)
        }
        let close = rows(monthly, asOf: "2026-12-01T00:00:00Z")
        // Nothing new about November: nothing restated, however much December recognized since.
        #expect(
            DeferredRevenueRestatement.between(previous: close, current: rows(monthly, asOf: "2026-12-20T00:00:00Z"))
                .isEmpty)
        // The refund of 2026-11-11 reaches the store in December: November is restated, and says how.
        let restated = DeferredRevenueRestatement.between(
            previous: close, current: rows(refunded, asOf: "2026-12-20T00:00:00Z"))
        #expect(
            restated.map(\.text) == [
                "2026-11 pro.monthly USD: net revenue 12.00 → 0.00, closing deferred 0.00 → 0.00"
            ])
        // A report looking back at an earlier month end compares nothing.
        #expect(
            DeferredRevenueRestatement.between(
                previous: rows(refunded, asOf: "2027-01-01T00:00:00Z"), current: close
            ).isEmpty)
    }
}
