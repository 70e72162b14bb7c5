import Foundation
import ReconFindings
import ReconModel
import ReconStorage

/// How far a subscription's revenue is recognized (CONTRACT §5.1), for the support timeline.
package struct LookupRecognition: Sendable {
    /// The instant the amounts are as of (the command's clock, or `--as-of`).
    package var asOf: Int64
    /// The report's time zone (`--timezone`): a catalog `duration` counts calendar months in it.
    package var timeZone: TimeZone
    /// The catalog: the product types and durations.
    package var catalog: [String: [CatalogProduct]]

    package init(asOf: Int64, timeZone: TimeZone, catalog: [String: [CatalogProduct]]) {
        self.asOf = asOf
        self.timeZone = timeZone
        self.catalog = catalog
    }
}

extension Lookup {
    /// One timeline line per subscription transaction that counts as a sale.
    ///
    /// Its amount (what the customer paid), its service period and where it comes from, and what of it is
    /// recognized, refunded and still deferred at the as-of. A consumable or non-consumable is recognized at
    /// purchase, so it gets no line.
    package static func recognitionEvents(
        _ groups: [TransactionGroup], bundleIDs: Set<String>, recognition: LookupRecognition
    ) -> [SubscriptionEvent] {
        var context = DetectionContext.readingEvidence(bundleIDs: bundleIDs)
        context.asOf = recognition.asOf
        context.catalog = recognition.catalog
        let pricer = ProceedsPricer(context: context, appleProceeds: nil)
        var events: [SubscriptionEvent] = []
        for whole in groups {
            let group = whole.asOf(recognition.asOf)
            guard !group.records.isEmpty else { continue }
            let facts = TransactionFacts(group, in: context)
            guard
                let sale = RecognitionSale.of(
                    facts, basis: .customerPrice, pricer: pricer, timeZone: recognition.timeZone),
                sale.periodSource == .apple || sale.periodSource == .catalog, let end = sale.end
            else { continue }
            let totals = RecognitionSchedule.totals(sale, by: recognition.asOf)
            func money(_ milli: Int64) -> String { Money(milliunits: milli, currency: sale.amount.currency).formatted }
            let source = sale.periodSource == .apple ? "Apple's expiry" : "the catalog's duration"
            events.append(
                SubscriptionEvent(
                    time: recognition.asOf, order: 8, kind: "revenue",
                    text: "transaction \(sale.transactionID) (\(sale.productID)): \(money(sale.amount.milliunits)) "
                        + "\(sale.amount.currency) paid for \(Timestamp.iso(sale.start)) to \(Timestamp.iso(end)) "
                        + "(\(source)); recognized \(money(totals.netRecognized)), deferred \(money(totals.deferred)), "
                        + "refunded \(money(totals.refunded)) \(sale.amount.currency) (customer price)",
                    transactionID: sale.transactionID, userID: sale.userID))
        }
        return events
    }
}
