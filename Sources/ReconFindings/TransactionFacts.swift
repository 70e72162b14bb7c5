import AppleData
import Foundation
import ReconModel
import ReconStorage

/// What the evidence of one transaction group establishes, worked out once per detector call.
///
/// All evidence that may not speak about this app's purchase (another bundle, a bad signature,
/// an Apple answer rejecting the receipt) is dropped first; see ``EvidenceRecord/isUsable(in:)``.
public final class TransactionFacts: Sendable {
    package let group: TransactionGroup
    package let context: DetectionContext
    /// The group's ledger rows in booking order (``LedgerTransaction/bookingOrder(_:_:)``),
    /// sorted once for every detector.
    package let booked: [LedgerTransaction]
    /// Evidence that may speak about the purchase, in the group's order.
    package let usable: [EvidenceRecord]
    /// The environment the evidence puts the purchase in.
    package let environment: EnvironmentClaim
    /// Whether Apple refunded or revoked it, decided by the latest refund-bearing evidence.
    package let refund: RefundState
    /// Refunds Apple granted and later reversed, both by `asOf`: ``refund`` says "not refunded" for such a
    /// transaction (Apple's latest word), while Apple's books keep the refund on its day and the reversal on its
    /// own (``RevenuePolicy/reversedRefunds(_:of:)``).
    package let reversedRefunds: [ReversedRefund]
    /// Whether Apple confirmed the purchase as valid (see ``EvidenceRecord/confirmsValidity``).
    package let confirmedByApple: Bool
    /// Apple's `price` for the transaction (JWS / Server API), trusted sources first: the total
    /// for the quantity purchased, as Apple documents it.
    package let applePrice: Money?
    /// Whether Apple says this is a family member's access (`inAppOwnershipType` `FAMILY_SHARED`,
    /// App Store Server API): the family member paid nothing, so it is never revenue.
    package let familyShared: Bool
    /// The offer Apple says the purchase was made under; nil when it states none.
    ///
    /// A free trial wins over a discount when evidence differs. Such a purchase is worth Apple's price, never the
    /// catalog's (``value(of:)``).
    package let offer: AppleOffer?
    /// The purchase this transaction id is a second id of (a restore, a second device), when the ledger books it
    /// under its primary id by as-of: one purchase, one sale (``SamePurchaseIndex``).
    package let bookedAsAnotherID: SamePurchaseIndex.Purchase?

    package init(_ group: TransactionGroup, in context: DetectionContext) {
        self.group = group
        self.context = context
        // Nearly every group has one row: nothing to sort, nothing to copy.
        self.booked = group.records.count < 2 ? group.records : group.records.sorted(by: LedgerTransaction.bookingOrder)
        let usable = group.evidence.filter { $0.isUsable(in: context) }
        self.usable = usable
        self.environment = EnvironmentClaim(usable)
        let authentic = usable.filter(\.isAuthentic)
        self.refund = RefundState(authentic)
        self.reversedRefunds = ReversedRefund.all(in: authentic).filter {
            $0.refundedAt <= context.asOf && $0.reversedAt <= context.asOf
        }
        self.confirmedByApple = usable.contains(where: \.confirmsValidity)
        self.applePrice = TransactionFacts.preferred(usable) { $0.entry.price }.first
        self.familyShared = TransactionFacts.preferred(usable) { $0.entry.inAppOwnershipType?.uppercased() }
            .contains("FAMILY_SHARED")
        let offers = TransactionFacts.preferred(usable) { $0.entry.offer }
        self.offer = offers.contains(.freeTrial) ? .freeTrial : offers.first
        self.bookedAsAnotherID = context.samePurchase.bookedPurchase(of: group.transactionID, asOf: context.asOf)
    }

    /// The distinct values a field takes in the most trustworthy evidence that states it.
    ///
    /// Authentic evidence if any states the field, else any usable evidence; in evidence order.
    package static func preferred<T: Hashable>(_ records: [EvidenceRecord], _ field: (EvidenceRecord) -> T?) -> [T] {
        func distinct(_ rows: [EvidenceRecord]) -> [T] {
            var seen = Set<T>()
            return rows.compactMap(field).filter { seen.insert($0).inserted }
        }
        let trusted = distinct(records.filter(\.isAuthentic))
        return trusted.isEmpty ? distinct(records) : trusted
    }

    /// The environment the purchase really happened in: what the evidence says, else what the
    /// ledger says.
    package func effectiveEnvironment(of row: LedgerTransaction) -> StoreEnvironment {
        switch environment {
        case .production: return .production
        case .test(let environment, _): return environment
        case .unknown: return row.environment
        }
    }

    /// Whether the row is a real App Store purchase: Production by the evidence, else by the ledger.
    ///
    /// Test purchases are never money at stake.
    package func isRealPurchase(_ row: LedgerTransaction) -> Bool {
        effectiveEnvironment(of: row).isProduction
    }

    /// Whether the row was credited to its user: a real purchase the backend did not reject as
    /// `invalid`.
    package func isCredited(_ row: LedgerTransaction) -> Bool {
        row.verificationStatus != .invalid && isRealPurchase(row)
    }

    /// Whether the row is revenue in the ledger and really is revenue: the ledger counts it
    /// (Production, not invalid) and no evidence says it was a test purchase.
    package func standsAsRevenue(_ row: LedgerTransaction) -> Bool {
        row.ledgerCountsAsRevenue && isRealPurchase(row)
    }

    /// What the row is worth (see ``DetectionContext/value(of:applePrice:)``); zero for a
    /// family-shared transaction (a row crediting it is counted at zero).
    ///
    /// A purchase Apple made under an offer, or priced at 0, is worth what Apple says: its `price` when stated, 0
    /// for a free trial, else the ledger's own record of the offer price; never the catalog's reference price
    /// (``offerValue(recorded:productID:storefront:)``).
    package func value(of row: LedgerTransaction) -> Money? {
        let value =
            offer != nil || applePrice?.milliunits == 0
            ? offerValue(recorded: row.lineTotal, productID: row.productID, storefront: row.storefront)
            : context.value(of: row, applePrice: applePrice)
        guard familyShared else { return value }
        return value.map { Money(milliunits: 0, currency: $0.currency) }
    }

    /// What a purchase Apple made under an offer cost: Apple's `price` (the total for the quantity), else 0 for a
    /// free trial (in the recorded price's currency, else the catalog's), else `recorded`; nil when none says.
    ///
    /// Apple documents a free trial (`is_trial_period`, app receipt field 1713) as a period the customer is not
    /// charged for, and an introductory offer (`is_in_intro_offer_period`, field 1719; JWS `offerType` 1) as a
    /// price of its own (https://developer.apple.com/documentation/appstorereceipts/is_trial_period,
    /// https://developer.apple.com/documentation/appstoreserverapi/offertype).
    package func offerValue(recorded: Money?, productID: String?, storefront: String?) -> Money? {
        if let applePrice { return applePrice }
        guard offer == .freeTrial else { return recorded }
        let currency =
            recorded?.currency
            ?? productID.flatMap { context.product($0, storefront: storefront)?.price?.currency }
        return currency.map { Money(milliunits: 0, currency: $0) }
    }

    // MARK: - Precedence
    //
    // Facts that decide which finding reports a problem when more than one rule would: the
    // detectors read them here rather than asking each other.

    /// The rows of a transaction that Apple says were paid and that were never delivered after the
    /// grace period, in booking order; empty when the rule does not apply (`UNDELIVERED`; a stale
    /// `pending` row among them is not also `STUCK_PENDING`).
    package var owedRows: [LedgerTransaction] {
        guard !group.records.contains(where: { $0.deliveredAt != nil }), !refund.isCancelled else { return [] }
        let deadline = context.asOf - context.deliveryGraceMillis
        let rows = booked.filter {
            isRealPurchase($0) && ($0.verificationStatus == .verified || confirmedByApple)
        }
        guard let first = rows.first, first.purchaseDate < deadline else { return [] }
        return rows
    }

    /// Whether a row was delivered but is invalid or never verified (`DELIVERED_UNVERIFIED`; such a
    /// row is not also `STUCK_PENDING`).
    package func isDeliveredUnverified(_ row: LedgerTransaction) -> Bool {
        guard row.deliveredAt != nil, isRealPurchase(row) else { return false }
        switch row.verificationStatus {
        case .verified: return false
        // Refunded, revoked or upgraded by Apple: the backend ending it is correct.
        case .invalid: return !refund.isCancelled && !refund.isUpgraded
        case .error: return !confirmedByApple
        case .pending:
            return row.purchaseDate < context.asOf - context.pendingLimitMillis && !confirmedByApple
        }
    }

    /// The product Apple says was bought when it is not the row's; nil when Apple agrees or
    /// states no product (`PRODUCT_MISMATCH`; `PRICE_MISMATCH` defers to it: a different product
    /// has a different price).
    package func appleProduct(differingFrom row: LedgerTransaction) -> String? {
        let products = TransactionFacts.preferred(usable) { $0.entry.productID }
        return products.contains(row.productID) ? nil : products.first
    }
}

/// The environment the usable evidence of one transaction puts it in.
package enum EnvironmentClaim {
    /// Trusted evidence says Production (or Apple confirmed an iOS 6 receipt that does not say
    /// Sandbox) and no trusted evidence says otherwise.
    case production(EvidenceRecord)
    /// Evidence says Sandbox, Xcode or LocalTesting, and no trusted evidence says Production.
    /// (Any usable evidence may say so: a receipt that itself says Sandbox is not revenue.)
    case test(StoreEnvironment, EvidenceRecord)
    /// No usable evidence states an environment, only an untrusted one claims Production, or
    /// trusted evidence contradicts itself: the ledger's word stands.
    case unknown

    package init(_ usable: [EvidenceRecord]) {
        // The record a finding cites: the most direct evidence that says so.
        let trustedProduction =
            EvidenceRecord.mostDirect(usable.filter { $0.trustedEnvironment == .production })
            ?? EnvironmentClaim.confirmedIOS6Production(usable)
        let trustedTest = EvidenceRecord.mostDirect(
            usable.filter {
                StoreEnvironment.isTest($0.trustedEnvironment)
            })
        let anyTest = EvidenceRecord.mostDirect(usable.filter { StoreEnvironment.isTest($0.effectiveEnvironment) })
        switch (trustedProduction, trustedTest, anyTest) {
        case (.some, .some, _):
            self = .unknown
        case (.some(let record), nil, _):
            self = .production(record)
        case (nil, .some(let record), _), (nil, nil, .some(let record)):
            self = .test(
                record.trustedEnvironment ?? record.effectiveEnvironment ?? .sandbox, record)
        case (nil, nil, nil):
            self = .unknown
        }
    }
}

extension EnvironmentClaim {
    /// Apple's status-0 answer for an iOS 6 transaction receipt that carries no `environment`
    /// key, when Apple's answer does not state one either.
    ///
    /// iOS 6 receipts name their environment only when it is Sandbox, and Apple's production
    /// endpoint answers 21007 for a Sandbox receipt, so the two together confirm Production.
    package static func confirmedIOS6Production(_ usable: [EvidenceRecord]) -> EvidenceRecord? {
        let silentReceipt = usable.contains {
            $0.source == .offline && $0.receiptFormat == .transactionReceipt && $0.effectiveEnvironment == nil
        }
        guard silentReceipt else { return nil }
        return usable.first {
            $0.source == .verifyReceipt && $0.appleStatus == VerifyReceiptStatus.valid
                && ($0.effectiveEnvironment == nil || $0.effectiveEnvironment == .production)
        }
    }
}
