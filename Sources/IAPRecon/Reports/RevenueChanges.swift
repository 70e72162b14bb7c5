/// What one transaction added to one line of the revenue report (a day, product and currency).
///
/// The store keeps the contributions each report showed, so the next report can say which
/// transactions changed a day finance already saw, and why.
public struct RevenueContribution: Sendable, Hashable {
    public struct Key: Sendable, Hashable, Comparable {
        /// `yyyy-MM-dd` in the report's time zone.
        public var date: String
        public var productID: String
        public var currency: String
        public var transactionID: String

        public static func < (a: Key, b: Key) -> Bool {
            (a.date, a.productID, a.currency, a.transactionID) < (b.date, b.productID, b.currency, b.transactionID)
        }
    }

    public var key: Key
    /// Milliunits of the currency.
    public var gross: Int64
    public var refunds: Int64
    /// Which evidence reported the refund, in words (not stored: only the current report needs it).
    public var refundSource: String?

    public var net: Int64 { gross - refunds }
}

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

/// Compares what the previous report showed with what this one shows (SPEC §5, `revenue_changes.csv`).
///
/// Days the previous report did not show are not changes.
enum RevenueChanges {
    struct Line: Hashable, Comparable {
        var date: String
        var productID: String
        var currency: String

        static func < (a: Line, b: Line) -> Bool {
            (a.date, a.productID, a.currency) < (b.date, b.productID, b.currency)
        }
    }

    /// The changes, by date, product, currency.
    ///
    /// - Parameter refundOrigins: for transactions refunded by a notification, where it came
    ///   from (`history` for the Get Notification History sweep).
    static func compute(
        previous: [RevenueContribution], current: [RevenueContribution.Key: RevenueContribution],
        refundLearnedBySweep: Set<String> = []
    ) -> [RevenueChange] {
        func line(_ key: RevenueContribution.Key) -> Line {
            Line(date: key.date, productID: key.productID, currency: key.currency)
        }
        let before = Dictionary(grouping: previous, by: { line($0.key) })
        let now = Dictionary(grouping: current.values, by: { line($0.key) })
        var changes: [RevenueChange] = []
        for shown in before.keys.sorted() {
            let old = before[shown] ?? []
            let new = now[shown] ?? []
            let previousNet = old.reduce(Int64(0)) { $0 + $1.net }
            let currentNet = new.reduce(Int64(0)) { $0 + $1.net }
            let oldByID = Dictionary(old.map { ($0.key.transactionID, $0) }, uniquingKeysWith: { a, _ in a })
            let newByID = Dictionary(new.map { ($0.key.transactionID, $0) }, uniquingKeysWith: { a, _ in a })
            var ids: [String] = []
            var reasons: [String] = []
            for id in Set(oldByID.keys).union(newByID.keys).sorted() {
                let was = oldByID[id]
                let isNow = newByID[id]
                guard (was?.gross ?? 0) != (isNow?.gross ?? 0) || (was?.refunds ?? 0) != (isNow?.refunds ?? 0) else {
                    continue
                }
                ids.append(id)
                for reason in Self.reasons(was: was, now: isNow, learnedBySweep: refundLearnedBySweep.contains(id))
                where !reasons.contains(reason) {
                    reasons.append(reason)
                }
            }
            guard previousNet != currentNet || !ids.isEmpty else { continue }
            changes.append(
                RevenueChange(
                    date: shown.date, productID: shown.productID, currency: shown.currency, previousNet: previousNet,
                    currentNet: currentNet, transactionIDs: ids, reason: reasons.joined(separator: "; ")))
        }
        return changes
    }

    /// Why one transaction's contribution to a day changed.
    static func reasons(was: RevenueContribution?, now: RevenueContribution?, learnedBySweep: Bool) -> [String] {
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
            reasons.append(refundsNow == 0 ? "refund reversed by Apple" : "refund amount changed")
        }
        return reasons
    }
}
