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

    package init(
        revenue: RevenueBuilder, sales: SalesReconciliation, finance: FinancialReconciliation?,
        events: (timeZone: TimeZone, pricer: ProceedsPricer)?
    ) {
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
        return RevenueMade(
            transactionID: facts.group.transactionID, contributions: revenue.lastContributions,
            parts: revenue.lastParts, counters: revenue.lastCounters, events: made)
    }
}
