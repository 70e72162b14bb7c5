import AppleData
import ReconModel
import ReconStorage

/// Apple's requests and alarms in a detection run (CONTRACT §7): consumption requests, unreported external purchase
/// tokens, rescinded consent, and the 12-month commitments.
extension DetectionEngine {
    /// Reads what Apple asked and warned of by the stage's as-of, adding the findings to `spool`.
    package func appleWord(_ stage: DetectStage, spool: any RunFindingSpool) throws -> AppleWordReport {
        let asOf = stage.context.asOf
        let notices = try appleWords.notices(asOf: asOf)
        var collector = FindingCollector()
        let requests = try ConsumptionRequests.lines(
            notices: notices, store: appleWords, catalog: stage.context.catalog, asOf: asOf)
        let detectors = stage.detectors
        for line in requests {
            for detector in detectors.consumption { detector.inspect(line, asOf: asOf, into: &collector) }
        }
        for notice in notices {
            for detector in detectors.externalPurchase { detector.inspect(notice, into: &collector) }
            if notice.type == "RESCIND_CONSENT", !detectors.consent.isEmpty {
                let users = try notice.appTransactionID.map { try appleWords.users(appTransactionID: $0) } ?? []
                for detector in detectors.consent { detector.inspect(notice, users: users, into: &collector) }
            }
        }
        for finding in collector.reported { try spool.add(finding) }
        let statements = try appleWords.commitmentStatements(asOf: asOf)
        let commitments =
            statements.isEmpty
            ? nil
            : try Commitments.lines(
                statements: statements, renewals: try appleWords.renewalCommitments(asOf: asOf), notices: notices,
                expiredByStatus: Set(
                    try entitlements.subscriptionStatuses(learnedBy: asOf).filter { $0.status == .expired }
                        .map(\.originalTransactionID)),
                users: { try appleWords.users(originalTransactionID: $0) }, asOf: asOf)
        return AppleWordReport(
            consumptionRequests: requests, commitments: commitments,
            notificationsByType: try appleWords.notificationCountsByType(asOf: asOf))
    }
}

/// What a report shows of Apple's requests and alarms.
public struct AppleWordReport: Sendable, Hashable {
    /// Every consumption request, by request time (`consumption_requests.csv`).
    public var consumptionRequests: [ConsumptionRequestLine]
    /// The commitments (`commitments.csv`); nil when no evidence carries `commitmentInfo`.
    public var commitments: [CommitmentLine]?
    /// How many notifications of each type the store learned by the as-of (run.json).
    public var notificationsByType: [String: Int]

    public init(
        consumptionRequests: [ConsumptionRequestLine] = [], commitments: [CommitmentLine]? = nil,
        notificationsByType: [String: Int] = [:]
    ) {
        self.consumptionRequests = consumptionRequests
        self.commitments = commitments
        self.notificationsByType = notificationsByType
    }

    /// "Contracted, not yet billed": the sum of `unbilled` per currency.
    public var unbilledByCurrency: [String: Int64] {
        var sums: [String: Int64] = [:]
        for line in commitments ?? [] where line.unbilled != 0 {
            sums[line.currency] = Money.sum(sums[line.currency] ?? 0, line.unbilled)
        }
        return sums
    }
}
