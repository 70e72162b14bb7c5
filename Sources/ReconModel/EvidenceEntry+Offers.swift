/// The offer Apple says a purchase was made under.
///
/// The catalog knows one reference price per product and storefront; a purchase under an offer was
/// charged Apple's price, never the catalog's.
public enum AppleOffer: Sendable, Hashable {
    /// A free trial: the customer paid nothing.
    case freeTrial
    /// An introductory, promotional, offer-code or win-back price: what Apple states, if it does.
    case discounted
}

extension EvidenceEntry {
    /// The offer Apple says this purchase was made under; nil when the entry states none.
    ///
    /// - A free trial: verifyReceipt `is_trial_period` `"true"` (app receipt field 1713,
    ///   https://developer.apple.com/documentation/appstorereceipts/is_trial_period), JWS `offerDiscountType`
    ///   `FREE_TRIAL`, or an offer (`offerType`) Apple priced at 0.
    /// - A discounted offer: verifyReceipt `is_in_intro_offer_period` `"true"` (field 1719,
    ///   https://developer.apple.com/documentation/appstorereceipts/is_in_intro_offer_period), or any JWS
    ///   `offerType` (https://developer.apple.com/documentation/appstoreserverapi/offertype), or `offerDiscountType`
    ///   `ONE_TIME` (an offer code redeemed on a one-time purchase,
    ///   https://developer.apple.com/documentation/appstoreserverapi/offerdiscounttype).
    public var offer: AppleOffer? {
        if isTrialPeriod == true || offerDiscountType?.uppercased() == "FREE_TRIAL" { return .freeTrial }
        if offerType != nil, price?.milliunits == 0 { return .freeTrial }
        if isInIntroOfferPeriod == true || offerType != nil || offerDiscountType?.uppercased() == "ONE_TIME" {
            return .discounted
        }
        return nil
    }

    /// How far apart an upgraded plan's cancellation date and the upgrade's purchase date may be: the two are one
    /// instant in Apple's data, written to the second.
    package static let upgradeTolerance: Int64 = 60_000

    /// The entries of one receipt (or one verifyReceipt answer), with the plans the customer upgraded marked
    /// ``isUpgraded``.
    ///
    /// An app receipt has no `is_upgraded` field, and its cancellation date (field 1712) has two meanings. Apple's
    /// Receipt Fields: "For a transaction that was canceled by Apple customer support, the time and date of the
    /// cancellation. For an auto-renewable subscription plan that was upgraded, the time and date of the upgrade
    /// transaction"
    /// (https://developer.apple.com/library/archive/releasenotes/General/ValidateAppStoreReceipt/Chapters/ReceiptFields.html).
    /// So a subscription entry cancelled at the instant another product of the same original transaction was bought
    /// is an upgrade, not a customer refund. Apple's own `is_upgraded` (verifyReceipt) and `revocationType` are kept
    /// as stated.
    public static func markingUpgrades(_ entries: [EvidenceEntry]) -> [EvidenceEntry] {
        guard entries.contains(where: { $0.cancellationDate != nil }) else { return entries }
        var families: [String: [EvidenceEntry]] = [:]
        for entry in entries {
            if let original = entry.originalTransactionID { families[original, default: []].append(entry) }
        }
        return entries.map { entry in
            guard entry.isUpgraded == nil, entry.revocationType == nil, let cancelled = entry.cancellationDate,
                entry.expiresDate != nil || entry.webOrderLineItemID != nil,
                let original = entry.originalTransactionID
            else { return entry }
            let upgrade = families[original, default: []].contains {
                $0.transactionID != entry.transactionID && $0.productID != entry.productID
                    && $0.purchaseDate.map { abs($0 - cancelled) <= upgradeTolerance } ?? false
            }
            guard upgrade else { return entry }
            var marked = entry
            marked.isUpgraded = true
            return marked
        }
    }
}
