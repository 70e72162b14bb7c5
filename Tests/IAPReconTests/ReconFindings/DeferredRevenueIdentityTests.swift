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
        for item in roll.schedule {
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
        for item in roll.schedule {
            let totals = item.totals
            scheduled[item.sale.amount.currency, default: 0] += totals.deferred
            // To date: amount = net recognized + refunded + deferred.
            #expect(totals.netRecognized + totals.refunded + totals.deferred == item.sale.amount.milliunits)
        }
        #expect(deferred == scheduled.filter { $0.value != 0 })
        #expect(scheduled.values.contains { $0 > 0 })
    }
}
