import AppleData
import ReconModel
import ReconStorage

/// `ENTITLEMENT_EXPIRY_MISMATCH`: both sides give access at the as-of, but the backend's `expires_at` is more than
/// `--entitlement-tolerance` away from Apple's `expiresDate` (`gracePeriodExpiresDate` in a billing grace period).
///
/// A few hours' difference is normal (renewals are charged up to a day before the period ends); no amount.
public struct EntitlementExpiryMismatch: SubscriptionDetector {
    public let code = FindingCode.entitlementExpiryMismatch

    public init() {}

    public func inspect(_ line: SubscriptionLine, tolerance: Int64, asOf: Int64, into findings: inout FindingCollector)
    {
        guard let apple = line.apple, apple.grantsAccess, line.entitlement.expiresAt > asOf,
            let ends = apple.accessEnds
        else { return }
        let (gap, overflow) = line.entitlement.expiresAt.subtractingReportingOverflow(ends)
        guard overflow || gap.magnitude > UInt64(max(0, tolerance)) else { return }
        findings.report(
            Finding(
                code, entitlement: line.entitlement, amount: nil,
                message: .entitlementExpiryMismatch(line.entitlement, apple, ends: ends, tolerance: tolerance)))
    }
}

fileprivate extension Finding.Message {
    static func entitlementExpiryMismatch(
        _ e: Entitlement, _ apple: AppleSubscriptionView, ends: Int64, tolerance: Int64
    ) -> Self {
        Self(
            "Subscription \(e.originalTransactionID) (\(e.productID)) of user \(e.userID): the backend's access ends "
                + "\(FindingText.instant(e.expiresAt)), Apple's \(FindingText.instant(ends)) (\(apple.evidence)), "
                + "more than \(DurationText.text(tolerance)) apart")
    }
}
