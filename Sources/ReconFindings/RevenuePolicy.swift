import AppleData
import ReconModel
import ReconStorage

/// What counts as revenue.
///
/// It asks the same ``TransactionFacts`` the detectors ask, so the revenue sheet and the findings never disagree
/// about environment, refunds or value.
package enum RevenuePolicy {
    /// The ledger row that carries a transaction's revenue: the first booked row credited to its user (a real
    /// purchase, not marked invalid).
    ///
    /// Duplicates of it count once. Nil: nothing counts.
    package static func countedRecord(_ facts: TransactionFacts) -> LedgerTransaction? {
        // A family member's access (`inAppOwnershipType` `FAMILY_SHARED`): the family member paid nothing, so
        // there is no sale to count, neither a unit nor an amount
        // (https://developer.apple.com/documentation/appstoreserverapi/inappownershiptype).
        if facts.familyShared { return nil }
        // A restore or a second device's transaction of a purchase the ledger books under its primary id: the
        // purchase is counted there, once (SamePurchaseIndex).
        if facts.bookedAsAnotherID != nil { return nil }
        if let credited = facts.booked.first(where: facts.isCredited) {
            return credited
        }
        // A row the backend marked `invalid` after Apple refunded it is a correctly handled refund:
        // Apple did sell it, so the purchase counts on its day and the refund on the refund day
        // (the purchase day finance already closed keeps its gross).
        // Likewise a subscription the customer upgraded: Apple sold it.
        switch facts.refund {
        case .refunded, .upgraded: break
        case .notRefunded, .familyRevoked: return nil
        }
        return facts.booked.first { $0.verificationStatus == .invalid && facts.isRealPurchase($0) }
    }

    /// The date and amount of a refund Apple reports, out of `value`.
    ///
    /// A prorated refund whose share is not stated is taken as full: revenue is never overstated.
    ///
    /// An upgraded subscription (``RefundState/upgraded(share:_:)``) is not refunded in full: Apple
    /// documents a prorated refund of the unused part of the period
    /// (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype,
    /// `DID_CHANGE_RENEWAL_PREF`), so its refund is the share Apple states, on Apple's revocation
    /// date, or none when Apple's data states no share (the amount is never invented).
    package static func refund(_ facts: TransactionFacts, of value: Money) -> (date: Int64, amount: Money)? {
        switch facts.refund {
        case .refunded(_, let record):
            let date = record.entry.cancellationDate ?? record.recordedAt
            return (date, facts.refund.refundedAmount(of: value) ?? value)
        case .upgraded(share: .some, let record):
            guard let amount = facts.refund.refundedAmount(of: value) else { return nil }
            return (record.entry.cancellationDate ?? record.recordedAt, amount)
        case .upgraded(share: nil, _), .notRefunded, .familyRevoked:
            return nil
        }
    }

    /// The refunds Apple reversed by as-of, each booked as Apple's books keep it: the refund (its amount out of
    /// `value`) on the day Apple refunded, the reversal (the same amount back) on the day Apple reversed it.
    ///
    /// A prorated refund whose share is not stated is taken as full, as ``refund(_:of:)`` takes it.
    package static func reversedRefunds(
        _ facts: TransactionFacts, of value: Money
    ) -> [(refundedAt: Int64, reversedAt: Int64, amount: Money, reversal: ReversedRefund)] {
        facts.reversedRefunds.map {
            ($0.refundedAt, $0.reversedAt, $0.refund.refundedAmount(of: value) ?? value, $0)
        }
    }
}
