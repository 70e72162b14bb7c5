import AppleData
import Foundation
import ReconModel
import ReconStorage

/// What one transaction books in Apple's reports (``LedgerEvent``), by the revenue report's rules (``RevenuePolicy``):
/// the counted row's sale on the day of its purchase, a refund's return on the day of the refund, and a refund Apple
/// reversed as a return on the day of the refund and a sale again on the day of the reversal.
///
/// Days are in the reports' time zone. Apple's Summary Sales Report shows a partial refund as 0 units and a negative
/// amount (https://developer.apple.com/help/app-store-connect/reference/summary-sales-report), and its Financial
/// Report books returns in the fiscal month of the refund
/// (https://developer.apple.com/help/app-store-connect/reference/financial-report-fields).
package enum LedgerEvents {
    /// The events of `facts`; `pricer` states their proceeds (none without one).
    package static func of(_ facts: TransactionFacts, timeZone: TimeZone, pricer: ProceedsPricer?) -> [LedgerEvent] {
        guard let record = RevenuePolicy.countedRecord(facts), let value = facts.value(of: record) else { return [] }
        let storefront = ProceedsPricer.storefront(facts, record) ?? ""
        let units = Int64(record.quantity)
        let stated = pricer?.stated(facts, record, value: value)?.amount
        let rate = pricer?.rate(of: record) ?? 0
        func event(at millis: Int64, units: Int64, amount: Int64, proceeds: Money?) -> LedgerEvent {
            LedgerEvent(
                day: Timestamp.dayAndSecond(millis, in: timeZone).day, recordID: record.recordID,
                transactionID: record.transactionID, userID: record.userID, productID: record.productID,
                storefront: storefront, currency: value.currency, units: units, amount: amount, proceeds: proceeds,
                rate: rate)
        }
        var events = [event(at: record.purchaseDate, units: units, amount: value.milliunits, proceeds: stated)]
        for reversed in RevenuePolicy.reversedRefunds(facts, of: value) {
            // A partial refund takes no unit back, in Apple's books as in its Sales Reports.
            let back = reversed.reversal.refund.isPartial ? 0 : units
            let given = stated.map { ProceedsPricer.returned($0, refunded: reversed.amount, of: value) }
            events.append(
                event(at: reversed.refundedAt, units: -back, amount: -reversed.amount.milliunits, proceeds: given))
            events.append(
                event(
                    at: reversed.reversedAt, units: back, amount: reversed.amount.milliunits,
                    proceeds: given.map { Money(milliunits: -$0.milliunits, currency: $0.currency) }))
        }
        if let refund = RevenuePolicy.refund(facts, of: value) {
            events.append(
                event(
                    at: refund.date, units: facts.refund.isPartial ? 0 : -units, amount: -refund.amount.milliunits,
                    proceeds: stated.map { ProceedsPricer.returned($0, refunded: refund.amount, of: value) }))
        }
        return events
    }
}
