import Foundation
import Testing

@testable import ReconFindings
@testable import ReconModel

/// The roll-forward's identities over a generated ledger of 100,000 sales (CONTRACT §5.1): every month foots, the
/// months chain (a month opens where the one before closed), the roll-forward and the schedule agree, and over a
/// sale's life recognized − reversed = amount − refunded.
@Suite struct DeferredRevenueIdentityTests {
    static let day: Int64 = 86_400_000

    /// Sales shaped like Apple's: weekly to yearly periods (or none), in three currencies, a tenth refunded (in
    /// full, prorated by `revocationPercentage`, or by an upgrade), a third of those refunds reversed later.
    static func ledger(count: Int, seed: UInt64) -> [RecognitionSale] {
        var random = SplitMix64(seed: seed)
        let first = Timestamp.parse("2025-01-01T00:00:00Z") ?? 0
        let currencies = [("USD", Int64(10)), ("JPY", Int64(1000)), ("EUR", Int64(10))]
        let periods: [Int64?] = [nil, 7 * day, 30 * day, 31 * day, 91 * day, 182 * day, 365 * day]
        return (0..<count).map { index in
            let (currency, step) = currencies[random.below(currencies.count)]
            let amount = Int64(1 + random.below(20_000)) * step
            let start = first + Int64(random.below(700)) * day + Int64(random.below(86_400_000))
            let period = periods[random.below(periods.count)]
            var refunds: [RecognitionSale.Refund] = []
            if random.below(10) == 0 {
                let at = start + Int64(random.below(Int(period ?? 40 * day)))
                let kinds: [RecognitionSale.Refund.Kind] = [
                    .full, .prorated(thousandthsOfPercent: 1 + random.below(100_000)), .upgrade,
                ]
                let reversed = random.below(3) == 0 ? at + Int64(random.below(Int(60 * day))) : nil
                refunds.append(.init(at: at, kind: kinds[random.below(kinds.count)], reversedAt: reversed))
            }
            let id = String(2_000_000_000_000_000 + index)
            return RecognitionSale(
                transactionID: id, originalTransactionID: id, userID: "u\(index % 997)",
                productID: "p\(random.below(5))", amount: Money(milliunits: amount, currency: currency), start: start,
                end: period.map { start + $0 }, periodSource: period == nil ? .pointInTime : .apple, refunds: refunds)
        }
    }

    @Test func theRollForwardFootsEveryMonthAndAgreesWithTheSchedule() throws {
        let sales = Self.ledger(count: 100_000, seed: 35)
        // Past every period, refund and reversal: each sale's life is over.
        let asOf = Timestamp.parse("2028-03-01T00:00:00Z") ?? 0
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        var roll = DeferredRevenueRollForward(timeZone: zone, asOf: asOf)
        for sale in sales { roll.add(sale) }
        let rows = roll.rows()

        var closing: [String: (month: Int, amount: Int64)] = [:]
        var net: [String: Int64] = [:]
        for row in rows {
            let key = row.productID + " " + row.currency
            // Each month opens where the last reported one closed (a month with nothing in it is left out only
            // when nothing is deferred either).
            #expect(row.opening == (closing[key]?.amount ?? 0), "\(CalendarMonths.text(row.month)) \(key)")
            #expect(row.opening + row.billings - row.recognized - row.refundsReleased == row.closing)
            #expect(row.netRevenue == row.recognized - row.refundsReversed)
            closing[key] = (row.month, row.closing)
            net[row.currency, default: 0] += row.netRevenue
        }

        var amount: [String: Int64] = [:]
        var refunded: [String: Int64] = [:]
        for sale in sales {
            let item = DeferredRevenueRollForward.ScheduleRow(sale, asOf: asOf)
            let totals = item.totals
            // Over the sale's life: recognized − reversed = amount − refunded, and nothing stays deferred.
            #expect(totals.recognized - totals.reversed == item.sale.amount.milliunits - totals.refunded)
            #expect(totals.deferred == 0)
            amount[item.sale.amount.currency, default: 0] += item.sale.amount.milliunits
            refunded[item.sale.amount.currency, default: 0] += totals.refunded
        }
        #expect(closing.values.allSatisfy { $0.amount == 0 })
        for (currency, total) in amount {
            #expect(net[currency] == total - (refunded[currency] ?? 0), "\(currency)")
        }
    }

    @Test func midLifeTheDeferredBalanceIsWhatTheScheduleStillDefers() throws {
        let sales = Self.ledger(count: 20_000, seed: 7)
        let asOf = Timestamp.parse("2026-03-17T12:00:00Z") ?? 0
        var roll = DeferredRevenueRollForward(timeZone: try #require(TimeZone(identifier: "UTC")), asOf: asOf)
        for sale in sales { roll.add(sale) }
        var deferred: [String: Int64] = [:]
        for row in roll.rows() where row.month == roll.lastMonth { deferred[row.currency, default: 0] += row.closing }
        var scheduled: [String: Int64] = [:]
        for sale in sales where sale.start < asOf {
            let item = DeferredRevenueRollForward.ScheduleRow(sale, asOf: asOf)
            let totals = item.totals
            scheduled[item.sale.amount.currency, default: 0] += totals.deferred
            // To date: amount = net recognized + refunded + deferred.
            #expect(totals.netRecognized + totals.refunded + totals.deferred == item.sale.amount.milliunits)
        }
        #expect(deferred == scheduled.filter { $0.value != 0 })
        #expect(scheduled.values.contains { $0 > 0 })
    }

    /// What the store keeps (each sale's whole life by month) with the as-of's month of the sales in flight gives
    /// the roll-forward and waterfall that adding every sale gives: at month edges in the report's time zone, mid-month,
    /// and after a night that judged some sales again (their old lives taken away, their new ones added).
    @Test(arguments: [
        "2025-03-01T08:00:00Z", "2025-11-02T07:59:59.999Z", "2026-01-31T23:59:59.999Z", "2026-07-15T10:30:00Z",
        "2027-02-01T08:00:00.001Z",
    ])
    func keptLivesAndTheOpenMonthGiveWhatAddingEverySaleGives(asOfText: String) throws {
        let sales = Self.ledger(count: 20_000, seed: 11)
        let asOf = try #require(Timestamp.parse(asOfText))
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        var whole = DeferredRevenueRollForward(timeZone: zone, asOf: asOf)
        for sale in sales { whole.add(sale) }

        // The night before judged every sale as it was then; tonight a tenth were judged again, some refunded now.
        var before = sales
        for index in stride(from: 0, to: before.count, by: 10) {
            before[index].refunds = []
            before[index].amount = Money(milliunits: before[index].amount.milliunits * 2, currency: "USD")
        }
        var kept = DeferredRevenueRollForward(timeZone: zone, asOf: asOf)
        var lives: [RecognitionMonth: RecognitionMonthSums] = [:]
        for sale in before {
            for (key, cell) in kept.lifetime(of: sale) { lives[key, default: RecognitionMonthSums()].add(cell) }
        }
        var incremental = DeferredRevenueRollForward(timeZone: zone, asOf: asOf)
        for (index, sale) in sales.enumerated() {
            if index % 10 == 0 {
                for (key, cell) in incremental.lifetime(of: before[index]) {
                    lives[key, default: RecognitionMonthSums()].add(cell, sign: -1)
                }
                for (key, cell) in incremental.lifetime(of: sale) {
                    lives[key, default: RecognitionMonthSums()].add(cell)
                }
            }
            // Only the sales in flight are worked out at the as-of.
            incremental.addInFlight(sale)
        }
        incremental.addLifetimes(lives)
        #expect(incremental.rows() == whole.rows())
        #expect(incremental.waterfall() == whole.waterfall())
        // Not vacuous: sales bought before the as-of were still in flight at it.
        #expect(sales.contains { $0.start < asOf && $0.lastChange >= asOf })
        #expect(whole.rows().count > 12)
    }
}
