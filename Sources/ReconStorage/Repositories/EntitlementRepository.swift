import AppleData
import ReconModel

/// The backend's entitlements and Apple's subscription statuses.
///
/// ``SQLEntitlements`` keeps them in SQLite.
package protocol EntitlementRepository {
    /// Every entitlement, by original transaction id, then user.
    func entitlements() throws(StoreError) -> [Entitlement]

    /// The entitlements of a user or of any of the subscriptions, by original transaction id, then user.
    func entitlements(userID: String?, originalTransactionIDs: [String]) throws(StoreError) -> [Entitlement]

    /// Whether any entitlement is in the store.
    func hasEntitlements() throws(StoreError) -> Bool

    /// Keeps Apple's answer, replacing an earlier one for the same subscription and environment.
    func recordSubscriptionStatus(_ s: SubscriptionStatus) throws(StoreError)

    /// Apple's answers the store learned by `asOf`, by original transaction id and environment.
    func subscriptionStatuses(learnedBy asOf: Int64) throws(StoreError) -> [SubscriptionStatus]

    /// Apple's answers about any of the subscriptions, by original transaction id and environment.
    func subscriptionStatuses(originalTransactionIDs: [String]) throws(StoreError) -> [SubscriptionStatus]

    /// Every piece of evidence under one original transaction id (its renewals, restores and upgrades), in the order
    /// it was recorded.
    func evidence(originalTransactionID: String) throws -> [EvidenceRecord]
}

extension SQLEntitlements: EntitlementRepository {}
