import Foundation
import ReconModel

/// What one transaction made of the revenue: its contributions to each line (for `revenue_changes.csv`), its parts,
/// its counts and its events in Apple's reports (kept for the next report).
package struct RevenueMade: Sendable {
    package var transactionID: String
    package var contributions: [RevenueContribution]
    package var parts: [RevenuePart]
    package var counters: TransactionCounters
    package var events: [LedgerEvent]
    /// The sale revenue recognition defers (CONTRACT §5.1); nil when the transaction is not counted.
    package var recognition: RecognitionSale? = nil
}

/// Revenue and Apple's sales as detection accumulates them, on its detecting thread.
///
/// Only that thread touches them until ``DetectStage/judgeTransactions(_:alongside:each:)`` returns, which
/// waits for it.
package final class DetectionTotals: @unchecked Sendable {
    package var revenue: RevenueBuilder
    package var sales: SalesReconciliation
    package var finance: FinancialReconciliation?
    /// The reports' time zone and the pricer of each transaction's events (``LedgerEvents``), when the store holds
    /// Apple's reports; nil otherwise (there is nothing to compare them with).
    package let events: (timeZone: TimeZone, pricer: ProceedsPricer)?
    /// Revenue recognized as the service is delivered (CONTRACT §5.1), and how each sale is priced for it: the
    /// judged sales' whole lives by month, and the as-of's month of those still in flight at the as-of.
    package var deferred: DeferredRevenueRollForward
    package var lifetimes: [RecognitionMonth: RecognitionMonthSums] = [:]
    package let recognition: (basis: RecognitionBasis, pricer: ProceedsPricer)

    package init(
        revenue: RevenueBuilder, sales: SalesReconciliation, finance: FinancialReconciliation?,
        events: (timeZone: TimeZone, pricer: ProceedsPricer)?, deferred: DeferredRevenueRollForward,
        recognition: (basis: RecognitionBasis, pricer: ProceedsPricer)
    ) {
        self.deferred = deferred
        self.recognition = recognition
        self.revenue = revenue
        self.sales = sales
        self.finance = finance
        self.events = events
    }

    /// Adds one transaction; returns what it made of the revenue and of Apple's reports.
    @Sendable package func add(_ facts: TransactionFacts) -> RevenueMade {
        revenue.add(facts)
        var made: [LedgerEvent] = []
        if let events {
            made = LedgerEvents.of(facts, timeZone: events.timeZone, pricer: events.pricer)
            let products = facts.group.records.map(\.productID)
            sales.add(made, products: products)
            finance?.add(made, products: products)
        }
        let sale = RecognitionSale.of(
            facts, basis: recognition.basis, pricer: recognition.pricer, zone: deferred.months.offsets)
        if let sale {
            deferred.addInFlight(sale)
            for (key, cell) in deferred.lifetime(of: sale) { lifetimes[key, default: RecognitionMonthSums()].add(cell) }
        }
        return RevenueMade(
            transactionID: facts.group.transactionID, contributions: revenue.lastContributions,
            parts: revenue.lastParts, counters: revenue.lastCounters, events: made, recognition: sale)
    }
}
