import AppleData
import ReconModel
import ReconStorage

/// What Apple's word says of one subscription at the as-of, and what decided it.
public struct AppleSubscriptionView: Sendable, Hashable {
    public var status: SubscriptionStatus.Code
    /// The latest period's `expiresDate` (epoch ms).
    public var expiresDate: Int64?
    /// `gracePeriodExpiresDate` in a billing grace period (epoch ms).
    public var gracePeriodExpiresDate: Int64?
    public var autoRenew: Bool?
    /// The latest period's price.
    public var price: Money?
    /// `subscription-status` when Apple answered in this run, else the evidence that decided, in words.
    public var evidence: String

    /// Whether Apple gives the customer access at the as-of: active, or in a billing grace period.
    public var grantsAccess: Bool { status == .active || status == .billingGracePeriod }

    /// When Apple's access ends: the grace period's end in a grace period, else the period's.
    public var accessEnds: Int64? {
        status == .billingGracePeriod ? gracePeriodExpiresDate ?? expiresDate : expiresDate
    }
}

/// One compared entitlement (a line of `subscriptions.csv`): the backend's side, Apple's, and the finding.
public struct SubscriptionLine: Sendable, Hashable {
    public var entitlement: Entitlement
    /// Nil when no evidence of Apple's speaks about the subscription: it is listed, never judged.
    public var apple: AppleSubscriptionView?
    /// The code of the finding the line raised, if any.
    public var finding: FindingCode?
}

/// The backend's entitlements beside Apple's state of each subscription (CONTRACT §3 subscriptions, §4
/// `PAID_NOT_ENTITLED`, `ENTITLED_NOT_PAID`, `ENTITLEMENT_EXPIRY_MISMATCH`).
///
/// "You are responsible for tracking subscription expiration": Apple's state comes from its Get All Subscription
/// Statuses answer (https://developer.apple.com/documentation/appstoreserverapi/get-all-subscription-statuses) when
/// the run asked, else from the signed transactions the store holds under the subscription's original transaction id
/// (the latest `expiresDate`, its `revocationDate`). An entitlement is compared when it is Production, of an
/// auto-renewable product (the catalog's type; a product the catalog does not know is compared when Apple's word
/// shows a subscription period), and may be active on either side at the as-of: the backend's `expires_at` is later
/// than the as-of less `--entitlement-lookback`, or Apple gives access or retries billing.
public struct SubscriptionComparison: Sendable {
    package let context: DetectionContext
    package let lookbackMillis: Int64
    package let toleranceMillis: Int64

    public init(context: DetectionContext, lookbackMillis: Int64, toleranceMillis: Int64) {
        self.context = context
        self.lookbackMillis = lookbackMillis
        self.toleranceMillis = toleranceMillis
    }

    /// How many milliseconds the backend's expiry may differ from Apple's.
    public var tolerance: Int64 { toleranceMillis }

    /// The line of one entitlement, or nil when it is not compared.
    ///
    /// - Parameters:
    ///   - status: Apple's latest status answer the store learned by the as-of, if any.
    ///   - evidence: the stored evidence under the entitlement's original transaction id.
    public func line(_ entitlement: Entitlement, status: SubscriptionStatus?, evidence: [EvidenceRecord])
        -> SubscriptionLine?
    {
        guard entitlement.environment.isProduction else { return nil }
        let type = context.catalog[entitlement.productID]?.first?.type
        guard type == nil || type == .autoRenewable else { return nil }
        let apple = view(status: status, evidence: evidence)
        if type == nil, apple?.expiresDate == nil { return nil }
        let recent = entitlement.expiresAt > context.asOf - lookbackMillis
        let appleOpen = apple.map { $0.grantsAccess || $0.status == .billingRetry } ?? false
        guard recent || appleOpen else { return nil }
        return SubscriptionLine(entitlement: entitlement, apple: apple, finding: nil)
    }

    /// Apple's state at the as-of: its answer in this run as it is; an earlier answer aged to the as-of (a period
    /// that ended since is expired) unless stored evidence knows a later period; else the stored evidence.
    package func view(status: SubscriptionStatus?, evidence: [EvidenceRecord]) -> AppleSubscriptionView? {
        let asOf = context.asOf
        let fromEvidence = Self.latest(evidence.compactMap { $0.asOf(asOf) }.filter { $0.isUsable(in: context) })
        if let status, status.learnedAt == asOf {
            return AppleSubscriptionView(
                status: status.status, expiresDate: status.expiresDate,
                gracePeriodExpiresDate: status.gracePeriodExpiresDate, autoRenew: status.autoRenew, price: status.price,
                evidence: "subscription-status")
        }
        if let status, (fromEvidence?.entry.expiresDate ?? .min) <= (status.expiresDate ?? .min) {
            var code = status.status
            if code == .active, let ends = status.expiresDate, ends <= asOf { code = .expired }
            if code == .billingGracePeriod, (status.gracePeriodExpiresDate ?? .min) <= asOf { code = .expired }
            return AppleSubscriptionView(
                status: code, expiresDate: status.expiresDate, gracePeriodExpiresDate: status.gracePeriodExpiresDate,
                autoRenew: status.autoRenew, price: status.price,
                evidence: "Apple's subscription status of \(Timestamp.iso(status.learnedAt).prefix(10))")
        }
        guard let latest = fromEvidence, let expires = latest.entry.expiresDate else { return nil }
        let revoked = latest.entry.cancellationDate != nil || latest.entry.revocationType != nil
        return AppleSubscriptionView(
            status: revoked ? .revoked : expires > asOf ? .active : .expired, expiresDate: expires,
            gracePeriodExpiresDate: nil, autoRenew: nil, price: latest.entry.price,
            evidence: FindingText.describe(latest))
    }

    /// The authentic entry of the latest period: the latest `expiresDate` (an upgraded plan's entry, which a new plan
    /// replaced, is not the subscription's period), then the latest statement.
    package static func latest(_ evidence: [EvidenceRecord]) -> EvidenceRecord? {
        evidence.filter { $0.isAuthentic && $0.entry.expiresDate != nil && $0.entry.isUpgraded != true }.max {
            ($0.entry.expiresDate ?? 0, RefundState.statedAt($0)) < (
                $1.entry.expiresDate ?? 0, RefundState.statedAt($1)
            )
        }
    }
}
