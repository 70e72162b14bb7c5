/// What counts as revenue. It asks the same ``TransactionFacts`` the detectors ask, so the
/// revenue sheet and the findings never disagree about environment, refunds or value.
enum RevenuePolicy {
    /// The ledger row that carries a transaction's revenue: the first booked row credited to its
    /// user (a real purchase, not marked invalid). Duplicates of it count once. Nil: nothing counts.
    static func countedRecord(_ facts: TransactionFacts) -> LedgerTransaction? {
        facts.group.records.filter { facts.isCredited($0) }.min(by: LedgerTransaction.bookingOrder)
    }

    /// The date and amount of a refund Apple reports, out of `value`. A prorated refund whose
    /// share is not stated is taken as full: revenue is never overstated.
    static func refund(_ facts: TransactionFacts, of value: Money) -> (date: Int64, amount: Money)? {
        guard case .refunded(_, let record) = facts.refund else { return nil }
        let date = record.entry.cancellationDate ?? record.recordedAt
        return (date, facts.refund.refundedAmount(of: value) ?? value)
    }
}
