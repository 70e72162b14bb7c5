import AppleData
import ReconModel
import ReconStorage

/// When a transaction's findings and revenue can next change with nothing but time passing: what lets a later report
/// keep them as they are until then (CONTRACT §5 "Incremental reports").
///
/// A group is judged as of the report's as-of: rows and evidence dated later are left out
/// (``TransactionGroup/asOf(_:)``), and the deadlines compare a row's times, plus the delivery grace, the finish
/// grace or the pending limit, with the as-of. So the outcome can only change when the as-of passes one of the
/// group's times, or one of them plus one of those three durations; this takes the earliest such moment after the
/// as-of. It is a bound that may come early (the group is then judged again, and comes out the same), never late.
package struct NextChange {
    private let asOf: Int64
    private let offsets: [Int64]
    /// The earliest moment found so far; nil while none is after the as-of.
    package private(set) var moment: Int64?

    package init(_ context: DetectionContext) {
        asOf = context.asOf
        offsets = [0, context.deliveryGraceMillis, context.finishGraceMillis, context.pendingLimitMillis]
    }

    /// Takes `time`, and `time` plus each duration, into account.
    package mutating func consider(_ time: Int64?) {
        guard let time else { return }
        for offset in offsets {
            let (candidate, overflow) = time.addingReportingOverflow(offset)
            guard !overflow, candidate > asOf else { continue }
            moment = min(moment ?? candidate, candidate)
        }
    }

    /// Every time of a ledger row.
    package mutating func consider(_ row: LedgerTransaction) {
        consider(row.purchaseDate)
        consider(row.settledAt)
        consider(row.deliveredAt)
        consider(row.finishedAt)
    }
}

extension TransactionGroup {
    /// The earliest moment after `context.asOf` at which judging this group again could give another outcome; nil
    /// when none can (every time, plus every grace, is already past).
    ///
    /// A finding that states an age ("3 days after purchase", ``AgedText``) is worded again for each as-of from what
    /// is kept: its words alone never make the group be judged again.
    package func nextChange(in context: DetectionContext) -> Int64? {
        var next = NextChange(context)
        for row in records { next.consider(row) }
        for record in evidence {
            next.consider(record.recordedAt)
            next.consider(record.learnedAt)
            let entry = record.entry
            next.consider(entry.purchaseDate)
            next.consider(entry.originalPurchaseDate)
            next.consider(entry.expiresDate)
            next.consider(entry.cancellationDate)
            next.consider(entry.signedDate)
            next.consider(entry.receiptCreationDate)
        }
        // Another transaction id of the same purchase counts once booked (``SamePurchaseIndex``).
        next.consider(context.samePurchase.purchase(of: transactionID)?.bookedAt)
        return next.moment
    }
}

extension OriginalTransactionGroup {
    /// As ``TransactionGroup/nextChange(in:)``, for the rows sharing an original transaction id.
    package func nextChange(in context: DetectionContext) -> Int64? {
        var next = NextChange(context)
        for row in records { next.consider(row) }
        return next.moment
    }
}
