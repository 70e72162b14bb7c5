import AppleData
import ReconModel
import ReconStorage

/// `PAID_NOT_ENTITLED`: Apple says the subscription is active (status 1) or in its billing grace period (4) at the
/// as-of, but the backend's access ended before it: a paying customer without access.
///
/// Apple keeps access open during a billing grace period ("continue to provide service during the grace period":
/// https://developer.apple.com/documentation/appstoreserverapi/gracePeriodExpiresDate), so the backend should too.
/// The amount is the latest period's price (Apple's, else the catalog's).
public struct PaidNotEntitled: SubscriptionDetector {
    public let code = FindingCode.paidNotEntitled

    public init() {}

    public func inspect(_ line: SubscriptionLine, tolerance: Int64, asOf: Int64, into findings: inout FindingCollector)
    {
        guard let apple = line.apple, apple.grantsAccess, line.entitlement.expiresAt <= asOf else { return }
        findings.report(
            Finding(
                code, entitlement: line.entitlement, amount: apple.price,
                message: .paidNotEntitled(line.entitlement, apple)))
    }
}

fileprivate extension Finding.Message {
    static func paidNotEntitled(_ e: Entitlement, _ apple: AppleSubscriptionView) -> Self {
        let state = apple.status == .billingGracePeriod ? "in its billing grace period" : "active"
        return Self(
            "Apple says subscription \(e.originalTransactionID) (\(e.productID)) is \(state) until "
                + "\(FindingText.instant(apple.accessEnds)) (\(apple.evidence)), but the backend's access for user "
                + "\(e.userID) ended \(FindingText.instant(e.expiresAt)): a paying customer without access")
    }
}
