import AppleData
import ReconModel
import ReconStorage

/// One line of `revenue_changes.csv`: a day the previous report already showed whose net changed.
public struct RevenueChange: Sendable, Hashable {
    public var date: String
    public var productID: String
    public var currency: String
    public var previousNet: Int64
    public var currentNet: Int64
    public var difference: Int64 { currentNet - previousNet }
    /// The transactions whose contribution changed, sorted.
    public var transactionIDs: [String]
    /// Why, in words (`refund reported by …`, `refund reversed`, `late import`, …).
    public var reason: String
}

/// Compares what the previous report showed with what this one shows (CONTRACT §5, `revenue_changes.csv`).
///
/// Days the previous report did not show are not changes.
package enum RevenueChanges {
    package typealias Line = RevenueLine

    /// Why one transaction's contribution to a day changed.
    package static func reasons(was: RevenueContribution?, now: RevenueContribution?, learnedBySweep: Bool) -> [String]
    {
        var reasons: [String] = []
        let grossBefore = was?.gross ?? 0
        let grossNow = now?.gross ?? 0
        if grossBefore == 0, grossNow > 0 {
            reasons.append("late import: a purchase on a day already reported")
        } else if grossBefore > 0, grossNow == 0 {
            reasons.append("no longer counted: verification turned invalid, or Apple says it was not a Production sale")
        } else if grossBefore != grossNow {
            reasons.append("price changed")
        }
        let refundsBefore = was?.refunds ?? 0
        let refundsNow = now?.refunds ?? 0
        if refundsNow > refundsBefore {
            if learnedBySweep {
                reasons.append("refund learned from Apple's notification history")
            } else {
                reasons.append("refund reported by \(now?.refundSource ?? "Apple")")
            }
        } else if refundsNow < refundsBefore {
            if let source = now?.reversalSource {
                reasons.append("refund reversed by Apple (\(source))")
            } else {
                reasons.append(refundsNow == 0 ? "refund reversed by Apple" : "refund amount changed")
            }
        }
        return reasons
    }
}

/// Compares this report's revenue with the previous report's baseline one transaction at a time,
/// in transaction id order.
///
/// Memory: the lines (day, product, currency) and the changes, never one entry per transaction.
package final class RevenueChangeTracker {
    private typealias Line = RevenueChanges.Line
    private let previousLines: Set<Line>
    private let previous: any RevenueBaselineCursor
    private let learnedBySweep: (String) throws(StoreError) -> Bool
    private var previousNet: [Line: Int64] = [:]
    private var currentNet: [Line: Int64] = [:]
    private var changed: [Line: [(transactionID: String, reasons: [String])]] = [:]

    /// Starts a comparison with the baseline `previous` reads (the contributions of every transaction the
    /// transactions to compare may hold, in transaction id order) of a report that showed `previousLines`.
    package init(
        previousLines: Set<RevenueLine>, previous: any RevenueBaselineCursor,
        learnedBySweep: @escaping (String) throws(StoreError) -> Bool
    ) {
        self.previousLines = previousLines
        self.previous = previous
        self.learnedBySweep = learnedBySweep
    }

    /// One transaction's contributions (at most one per line); transactions come in ascending id
    /// order, each once.
    package func add(transactionID: String, contributions: [RevenueContribution]) throws(StoreError) {
        // Transactions the previous report counted that are not in the store any more.
        while let old = previous.current, old.key.transactionID.utf8.lexicographicallyPrecedes(transactionID.utf8) {
            try compare(old.key.transactionID, was: try takePrevious(old.key.transactionID), now: [])
        }
        try compare(transactionID, was: try takePrevious(transactionID), now: contributions)
    }

    /// The changes, by date, product, currency.
    ///
    /// - Parameter shownNets: each shown line's net as the previous report showed it, when only some of the
    ///   transactions were compared (an incremental report): a line's nets are then that net, and that net plus what
    ///   the compared transactions changed. Nil: every transaction was compared, and the sums are whole.
    package func finish(shownNets: [RevenueLine: Int64]? = nil) throws(StoreError) -> [RevenueChange] {
        while let old = previous.current {
            try compare(old.key.transactionID, was: try takePrevious(old.key.transactionID), now: [])
        }
        var changes: [RevenueChange] = []
        for shown in previousLines.sorted() {
            var previousNet = previousNet[shown] ?? 0
            var currentNet = currentNet[shown] ?? 0
            if let shownNets {
                let base = shownNets[shown] ?? 0
                // Capped, never a trap, where a line's sums overflow the money type.
                currentNet = Money.sum(Money.difference(base, previousNet), currentNet)
                previousNet = base
            }
            var ids: [String] = []
            var reasons: [String] = []
            for item in (changed[shown] ?? []).sorted(by: { $0.transactionID < $1.transactionID }) {
                ids.append(item.transactionID)
                for reason in item.reasons where !reasons.contains(reason) { reasons.append(reason) }
            }
            guard previousNet != currentNet || !ids.isEmpty else { continue }
            changes.append(
                RevenueChange(
                    date: shown.date, productID: shown.productID, currency: shown.currency, previousNet: previousNet,
                    currentNet: currentNet, transactionIDs: ids, reason: reasons.joined(separator: "; ")))
        }
        return changes
    }

    /// The previous report's contributions of `transactionID` (the cursor moves past them).
    private func takePrevious(_ transactionID: String) throws(StoreError) -> [RevenueContribution] {
        var items: [RevenueContribution] = []
        while let old = previous.current, old.key.transactionID == transactionID {
            items.append(old)
            try previous.advance()
        }
        return items
    }

    private static func line(_ key: RevenueContribution.Key) -> Line {
        Line(date: key.date, productID: key.productID, currency: key.currency)
    }

    /// Sums both sides per line and notes a transaction whose contribution to a shown line changed.
    private func compare(_ id: String, was: [RevenueContribution], now: [RevenueContribution]) throws(StoreError) {
        guard !previousLines.isEmpty else { return }
        // Only lines the previous report showed are compared (and summed).
        for item in was {
            let line = Self.line(item.key)
            if previousLines.contains(line) { previousNet[line] = Money.sum(previousNet[line] ?? 0, item.net) }
        }
        for item in now {
            let line = Self.line(item.key)
            if previousLines.contains(line) { currentNet[line] = Money.sum(currentNet[line] ?? 0, item.net) }
        }
        var lines = was.map { Self.line($0.key) }
        for item in now where !lines.contains(Self.line(item.key)) { lines.append(Self.line(item.key)) }
        for line in lines where previousLines.contains(line) {
            let before = was.first { Self.line($0.key) == line }
            let after = now.first { Self.line($0.key) == line }
            guard (before?.gross ?? 0) != (after?.gross ?? 0) || (before?.refunds ?? 0) != (after?.refunds ?? 0) else {
                continue
            }
            let newRefund = (after?.refunds ?? 0) > (before?.refunds ?? 0)
            let reasons = RevenueChanges.reasons(
                was: before, now: after, learnedBySweep: newRefund ? try learnedBySweep(id) : false)
            changed[line, default: []].append((id, reasons))
        }
    }
}
