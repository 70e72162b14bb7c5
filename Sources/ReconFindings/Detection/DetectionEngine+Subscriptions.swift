import AppleData
import ReconModel
import ReconStorage

/// The subscriptions of a detection run: each entitlement in the store beside Apple's state of its subscription.
extension DetectionEngine {
    /// Compares every entitlement with Apple's status answers and stored evidence at `stage`'s as-of, adding the
    /// findings to `spool`; nil when no entitlement is in the store.
    package func compareSubscriptions(_ stage: DetectStage, spool: any RunFindingSpool) throws -> SubscriptionsReport? {
        guard try entitlements.hasEntitlements() else { return nil }
        let context = stage.context
        let comparison = SubscriptionComparison(
            context: context, lookbackMillis: settings.entitlementLookbackMillis,
            toleranceMillis: settings.entitlementToleranceMillis)
        var statuses: [String: SubscriptionStatus] = [:]
        for status in try entitlements.subscriptionStatuses(learnedBy: context.asOf)
        where status.environment.isProduction {
            statuses[status.originalTransactionID] = status
        }
        var lines: [SubscriptionLine] = []
        for entitlement in try entitlements.entitlements() {
            let evidence = try entitlements.evidence(originalTransactionID: entitlement.originalTransactionID)
            guard
                var line = comparison.line(
                    entitlement, status: statuses[entitlement.originalTransactionID], evidence: evidence)
            else { continue }
            var collector = FindingCollector()
            for detector in stage.detectors.subscription {
                detector.inspect(line, tolerance: comparison.tolerance, asOf: context.asOf, into: &collector)
            }
            line.finding = collector.reported.first?.code
            for finding in collector.reported { try spool.add(finding) }
            lines.append(line)
        }
        return SubscriptionsReport(
            lines: lines, statusesAnswered: statuses.values.count { $0.learnedAt == context.asOf })
    }
}

/// The subscriptions a report shows (`subscriptions.csv`, sheet `Subscriptions`).
public struct SubscriptionsReport: Sendable, Hashable {
    /// Every compared entitlement, by original transaction id, then user.
    public var lines: [SubscriptionLine]
    /// How many subscriptions Apple's status answered in this run.
    public var statusesAnswered: Int

    public init(lines: [SubscriptionLine], statusesAnswered: Int) {
        self.lines = lines
        self.statusesAnswered = statusesAnswered
    }
}
