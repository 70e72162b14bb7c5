/// Whether Apple refunded or revoked a transaction.
///
/// Apple's latest signed statement decides: among authentic evidence that speaks about refunds
/// (by JWS `signedDate`, else `recordedAt` for evidence without one; then evidence order), an entry
/// with a revocation date or type (`revocationType` is `REFUND_FULL`, `REFUND_PRORATED` or
/// `FAMILY_REVOKE`; App Store Server API), or a later signed transaction without `revocationDate`
/// (a reversal). Apple has no `REFUND_REVERSED` revocation type; a reversal arrives as a
/// `REFUND_REVERSED` notification. Evidence that is silent about refunds (an app receipt uploaded
/// again) changes nothing.
///
/// A subscription the customer upgraded (JWS `isUpgraded`) is not a customer refund: Apple's
/// `DID_CHANGE_RENEWAL_PREF` / `UPGRADE` "goes into effect immediately, starting a new billing
/// period, and the customer receives a prorated refund for the unused portion of the previous
/// period" (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype;
/// `isUpgraded`: https://developer.apple.com/documentation/appstoreserverapi/isupgraded). Neither
/// the notification nor the transaction states that refund's amount; only a `REFUND_PRORATED`
/// `revocationPercentage` on the upgraded transaction would, and then it is used as stated.
package enum RefundState {
    case notRefunded
    /// Refunded: the whole price, or a share in thousandths of a percent (nil: share not stated).
    case refunded(Refund, EvidenceRecord)
    /// `FAMILY_REVOKE`: a family member lost access; nobody got money back.
    case familyRevoked(EvidenceRecord)
    /// The customer upgraded this subscription (JWS `isUpgraded`): the purchase stands, and Apple
    /// refunds the unused part of its period pro rata. The share is Apple's `revocationPercentage`
    /// (thousandths of a percent) when it states one with `REFUND_PRORATED`; nil: not stated.
    case upgraded(share: Int?, EvidenceRecord)

    /// How much of the price Apple gave back.
    package enum Refund: Equatable {
        case full
        /// `revocationPercentage`, thousandths of a percent (50 000 = 50 %); nil when not stated.
        case prorated(Int?)
    }

    package init(_ authentic: [EvidenceRecord]) {
        var latest: (record: EvidenceRecord, state: RefundState)?
        for record in RefundState.upgradesCarriedOver(authentic) {
            guard let state = RefundState.stated(by: record) else { continue }
            if let current = latest, RefundState.statedAt(current.record) > RefundState.statedAt(record) { continue }
            latest = (record, state)
        }
        self = latest?.state ?? .notRefunded
    }

    /// When Apple made the statement.
    ///
    /// A signed statement (JWS, Server API, notification) by its `signedDate`. A receipt speaks as of when it was
    /// made, however late it was uploaded or verified: an app receipt as of its creation date (field 12), Apple's
    /// verifyReceipt answer as of the receipt it was given (`receipt.receipt_creation_date_ms`), an iOS 6
    /// transaction receipt (made at the purchase) as of its purchase; a cancellation it shows, as of that
    /// cancellation at the earliest. So a stale receipt never undoes a later signed reversal, nor hides a later
    /// signed refund. Anything else as of when it was recorded.
    package static func statedAt(_ record: EvidenceRecord) -> Int64 {
        let entry = record.entry
        if let signed = entry.signedDate { return signed }
        let isReceipt =
            record.source == .verifyReceipt || (record.source == .offline && record.receiptFormat != .signedTransaction)
        let made = entry.receiptCreationDate ?? (record.receiptFormat == .transactionReceipt ? entry.purchaseDate : nil)
        guard isReceipt, let made else { return record.recordedAt }
        return max(made, entry.cancellationDate ?? made)
    }

    /// The evidence, with a cancellation that repeats an upgrade Apple stated read as that upgrade.
    ///
    /// Once authentic evidence marks a transaction upgraded (JWS `isUpgraded`, verifyReceipt `is_upgraded`, or an
    /// app receipt that shows the upgrade), a later statement of the same cancellation that does not say why (an
    /// app receipt or verifyReceipt answer without the flag) is that upgrade again, never a customer refund. Only
    /// Apple's explicit `revocationType` (`REFUND_FULL`) makes an upgraded transaction a refund.
    package static func upgradesCarriedOver(_ authentic: [EvidenceRecord]) -> [EvidenceRecord] {
        var upgrades: [String: [Int64?]] = [:]
        for record in authentic where record.entry.isUpgraded == true {
            upgrades[record.entry.transactionID, default: []].append(record.entry.cancellationDate)
        }
        guard !upgrades.isEmpty else { return authentic }
        return authentic.map { record in
            guard record.entry.isUpgraded != true, record.entry.revocationType == nil,
                let cancelled = record.entry.cancellationDate,
                let dates = upgrades[record.entry.transactionID],
                dates.contains(where: { date in
                    date.map { abs($0 - cancelled) <= EvidenceEntry.upgradeTolerance } ?? true
                })
            else { return record }
            var repeated = record
            repeated.entry.isUpgraded = true
            return repeated
        }
    }

    /// What one piece of evidence says about refunds: nil when it is silent; `.notRefunded` for
    /// a signed transaction (JWS or Server API) without `revocationDate`, which states that the
    /// transaction stands (after a reversal, Apple signs it again without one).
    ///
    /// The one refund rule: the detectors (through ``TransactionFacts``) and the support lookup's timeline both
    /// read evidence with it.
    package static func stated(by record: EvidenceRecord) -> RefundState? {
        let entry = record.entry
        // A notification carries Apple's signed transaction as of the notification's signedDate
        // (stored as the evidence's recordedAt). One without `revocationDate` (a REFUND_REVERSED,
        // a later renewal or consumption request) says "not refunded" now.
        if record.source == .notification, entry.cancellationDate == nil, entry.revocationType == nil,
            entry.isUpgraded != true
        {
            return .notRefunded
        }
        let type = entry.revocationType?.uppercased()
        if type == "FAMILY_REVOKE" { return .familyRevoked(record) }
        // Upgraded (Apple sends `isUpgraded` only when true): the prorated refund Apple documents
        // for an upgrade, not a customer refund; a `REFUND_FULL` stays a refund of the whole price.
        if entry.isUpgraded == true, type != "REFUND_FULL" {
            return .upgraded(share: type == "REFUND_PRORATED" ? entry.revocationPercentage : nil, record)
        }
        if type == "REFUND_PRORATED" { return .refunded(.prorated(entry.revocationPercentage), record) }
        if entry.cancellationDate != nil || type == "REFUND_FULL" { return .refunded(.full, record) }
        if record.source == .serverAPI || record.receiptFormat == .signedTransaction { return .notRefunded }
        return nil
    }

    /// Whether the customer no longer owns the purchase (refunded or revoked).
    ///
    /// An upgraded subscription was owned and paid for: not cancelled.
    package var isCancelled: Bool {
        switch self {
        case .notRefunded, .upgraded: return false
        case .refunded, .familyRevoked: return true
        }
    }

    /// Whether Apple says the customer upgraded this subscription to another one.
    package var isUpgraded: Bool {
        if case .upgraded = self { return true }
        return false
    }

    /// Whether Apple gave back part of the price, not all of it.
    ///
    /// A prorated share Apple states below 100 % (a `REFUND_PRORATED`, or an upgrade's prorated refund). Apple's
    /// Summary Sales Report shows such a refund as a row of 0 units with a negative amount: no unit comes back.
    package var isPartial: Bool {
        switch self {
        case .refunded(.prorated(let share?), _), .upgraded(share: let share?, _): return share < 100_000
        case .refunded, .upgraded, .notRefunded, .familyRevoked: return false
        }
    }

    /// The amount Apple gave back out of `value`; nil when the prorated share is not stated.
    package func refundedAmount(of value: Money) -> Money? {
        if case .upgraded(let share?, _) = self { return value.scaled(byPPM: Int64(share) * 10).roundedToMinorUnit }
        guard case .refunded(let refund, _) = self else { return nil }
        switch refund {
        case .full: return value
        // Rounded to the currency's smallest unit when computed, so gross − refunds = net foots.
        case .prorated(let share?): return value.scaled(byPPM: Int64(share) * 10).roundedToMinorUnit
        case .prorated(nil): return nil
        }
    }
}
