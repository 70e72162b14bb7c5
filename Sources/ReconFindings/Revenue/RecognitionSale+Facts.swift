import Foundation
import ReconModel

extension RecognitionSale {
    /// The sale CONTRACT §5.1 recognizes for one transaction, or nil when it is not counted.
    ///
    /// Counted exactly as `revenue_daily.csv` counts (``RevenuePolicy/countedRecord(_:)``): Production, paid by the
    /// buyer (a family member's copy and Sandbox never count); a free trial at Apple's price 0 bills nothing, so it
    /// is no sale here either.
    ///
    /// - Parameters:
    ///   - basis: the customer price, or the proceeds as ``ProceedsPricer`` prices them for the revenue lines.
    ///   - timeZone: the report's; a catalog `duration` counts calendar months in it.
    package static func of(
        _ facts: TransactionFacts, basis: RecognitionBasis, pricer: ProceedsPricer, timeZone: TimeZone
    ) -> RecognitionSale? {
        of(facts, basis: basis, pricer: pricer, zone: ZoneOffsets.of(timeZone))
    }

    /// ``of(_:basis:pricer:timeZone:)`` with the report's zone as its table of offsets (``ZoneOffsets``), as every
    /// judged transaction asks.
    package static func of(
        _ facts: TransactionFacts, basis: RecognitionBasis, pricer: ProceedsPricer, zone: ZoneOffsets
    ) -> RecognitionSale? {
        guard let record = RevenuePolicy.countedRecord(facts), let value = facts.value(of: record),
            value.milliunits > 0
        else { return nil }
        let amount: Money
        switch basis {
        case .customerPrice: amount = value
        case .proceeds:
            amount =
                pricer.stated(facts, record, value: value)?.amount
                ?? value.scaledToMinorUnit(byPPM: pricer.rate(of: record))
        }
        let start = record.purchaseDate
        let (end, source) = period(facts, record, start: start, zone: zone)
        let group = facts.group
        return RecognitionSale(
            transactionID: group.transactionID, originalTransactionID: record.originalTransactionID,
            userID: record.userID, productID: record.productID, amount: amount, start: start, end: end,
            periodSource: source, refunds: refunds(facts))
    }

    /// The service period: Apple's `expiresDate` for this transaction (signed transaction, Server API,
    /// notification; verifyReceipt's `expires_date_ms`), else the purchase plus the catalog's `duration` for a
    /// subscription; a consumable or non-consumable at its purchase instant.
    ///
    /// Apple documents `expiresDate` as "the UNIX time, in milliseconds, that the subscription expires or renews"
    /// (https://developer.apple.com/documentation/appstoreserverapi/expiresdate): the end of the period this
    /// transaction paid for.
    static func period(
        _ facts: TransactionFacts, _ record: LedgerTransaction, start: Int64, zone: ZoneOffsets
    ) -> (end: Int64?, source: PeriodSource) {
        let id = facts.group.transactionID
        let catalog = facts.context.product(record.productID, storefront: record.storefront)
        // The evidence of this transaction is read only when asked: most sales are consumables the catalog types.
        var mine: [EvidenceRecord] { facts.usable.filter { $0.entry.transactionID == id } }
        let type =
            catalog?.type
            ?? TransactionFacts.preferred(mine) { $0.entry.productType }.first.flatMap { ProductType(appleType: $0) }
        switch type {
        case .consumable?, .nonConsumable?:
            return (nil, .pointInTime)
        case .nonRenewing?:
            if let duration = catalog?.duration { return (duration.end(from: start, in: zone), .catalog) }
            return (nil, .none)
        case .autoRenewable?, nil:
            // Apple's latest statement of the expiry wins (a renewal date Apple moved, e.g. after a price change).
            let expiries = TransactionFacts.preferred(mine) { $0.entry.expiresDate }.filter { $0 > start }
            if let expires = expiries.max() { return (expires, .apple) }
            if let duration = catalog?.duration { return (duration.end(from: start, in: zone), .catalog) }
            return (nil, type == nil ? .pointInTime : .none)
        }
    }

    /// Apple's refunds of the transaction: those it reversed (``ReversedRefund``), then the one standing
    /// (``RefundState``), each at Apple's `revocationDate`.
    static func refunds(_ facts: TransactionFacts) -> [Refund] {
        var refunds = facts.reversedRefunds.map { reversed in
            Refund(at: reversed.refundedAt, kind: kind(of: reversed.refund), reversedAt: reversed.reversedAt)
        }
        switch facts.refund {
        case .refunded(_, let record), .upgraded(_, let record):
            refunds.append(Refund(at: record.entry.cancellationDate ?? record.recordedAt, kind: kind(of: facts.refund)))
        case .notRefunded, .familyRevoked:
            break
        }
        return refunds
    }

    /// A refund as §5.1 takes it: a `revocationPercentage` Apple states is a prorated refund (an upgrade's too);
    /// a prorated refund whose share is not stated is taken as full, as the revenue lines take it (revenue is never
    /// overstated); an upgrade that states no share releases what is deferred.
    static func kind(of state: RefundState) -> Refund.Kind {
        switch state {
        case .refunded(.prorated(let share?), _), .upgraded(share: let share?, _):
            return share >= 100_000 ? .full : .prorated(thousandthsOfPercent: share)
        case .upgraded(share: nil, _): return .upgrade
        case .refunded, .notRefunded, .familyRevoked: return .full
        }
    }
}
