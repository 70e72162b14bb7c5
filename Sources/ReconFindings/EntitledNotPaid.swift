import AppleData
import ReconModel
import ReconStorage

/// `ENTITLED_NOT_PAID`: the backend grants access at the as-of, but Apple says the subscription expired (status 2,
/// no grace period left) or was revoked or refunded (5, or a `revocationDate` on its latest transaction): access
/// nobody pays for.
///
/// Billing retry without a grace period (status 3) is no finding: Apple leaves access to the app then
/// (https://developer.apple.com/documentation/appstoreserverapi/status). The amount is the latest period's price.
public struct EntitledNotPaid: SubscriptionDetector {
    public let code = FindingCode.entitledNotPaid

    public init() {}

    public func inspect(_ line: SubscriptionLine, tolerance: Int64, asOf: Int64, into findings: inout FindingCollector)
    {
        guard let apple = line.apple, apple.status == .expired || apple.status == .revoked,
            line.entitlement.expiresAt > asOf
        else { return }
        findings.report(
            Finding(
                code, entitlement: line.entitlement, amount: apple.price,
                message: .entitledNotPaid(line.entitlement, apple)))
    }
}

fileprivate extension Finding.Message {
    static func entitledNotPaid(_ e: Entitlement, _ apple: AppleSubscriptionView) -> Self {
        let state =
            apple.status == .revoked
            ? "was revoked or refunded" : "expired \(FindingText.instant(apple.expiresDate)) with no grace period left"
        return Self(
            "The backend grants user \(e.userID) subscription \(e.originalTransactionID) (\(e.productID)) until "
                + "\(FindingText.instant(e.expiresAt)), but Apple says it \(state) (\(apple.evidence)): access nobody "
                + "pays for")
    }
}
