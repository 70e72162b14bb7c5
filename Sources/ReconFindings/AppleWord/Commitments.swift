import ReconModel

/// The 12-month commitments of monthly billing plans at the as-of (CONTRACT §7).
///
/// Each monthly charge is its own transaction under the commitment's original transaction (Apple: "Supporting monthly
/// subscriptions with a 12-month commitment",
/// https://developer.apple.com/documentation/storekit/supporting-monthly-subscriptions-with-a-12-month-commitment).
/// Only Production commitments count (they are what finance discloses).
public enum Commitments {
    /// Billing retry that long after the last period ended ends the commitment.
    public static let billingRetryLimitMillis: Int64 = 90 * 86_400_000

    /// One line per Production commitment, by original transaction id.
    package static func lines(
        statements: [CommitmentStatement], renewals: [String: RenewalCommitment], notices: [AppleNotice],
        expiredByStatus: Set<String> = [], users: (String) throws -> [String], asOf: Int64
    ) throws -> [CommitmentLine] {
        // Apple's `EXPIRED` notification, or its subscription status 2 (expired) by the as-of.
        let expired = Set(notices.filter { $0.type == "EXPIRED" }.compactMap(\.originalTransactionID))
            .union(expiredByStatus)
        var lines: [CommitmentLine] = []
        let byOriginal = Dictionary(grouping: statements) { $0.originalTransactionID }
        for original in byOriginal.keys.sorted() {
            guard let all = byOriginal[original] else { continue }
            // Each charge: its latest statement (a refund comes after the purchase), its price from any.
            var charges: [(latest: CommitmentStatement, price: Money?)] = []
            for (_, same) in Dictionary(grouping: all, by: \.transactionID).sorted(by: { $0.key < $1.key }) {
                // By Apple's signed date; statements signed at one instant keep the store's order.
                let ordered = same.enumerated().sorted {
                    ($0.element.signedDate ?? 0, $0.offset) < ($1.element.signedDate ?? 0, $1.offset)
                }.map(\.element)
                guard let latest = ordered.last else { continue }
                guard latest.environment?.isProduction ?? true, let purchased = latest.purchaseDate, purchased <= asOf
                else { continue }
                charges.append((latest, ordered.last { $0.price != nil }?.price))
            }
            charges.sort {
                ($0.latest.purchaseDate ?? 0, $0.latest.transactionID) < (
                    $1.latest.purchaseDate ?? 0, $1.latest.transactionID
                )
            }
            guard let last = charges.last,
                let terms = charges.last(where: { $0.latest.terms.commitmentPrice != nil })?.latest.terms,
                let commitmentPrice = terms.commitmentPrice,
                let currency = charges.compactMap({ $0.price?.currency }).first
            else { continue }
            var billed: Int64 = 0
            var refunded: Int64 = 0
            for charge in charges {
                guard let price = charge.price?.milliunits else { continue }
                billed = Money.sum(billed, price)
                if let refund = Self.refunded(charge.latest, price: price, currency: currency, asOf: asOf) {
                    refunded = Money.sum(refunded, refund)
                }
            }
            let total = terms.totalBillingPeriods ?? 12
            let lastEnds = last.latest.expiresDate ?? last.latest.purchaseDate ?? 0
            let renewal = renewals[original]
            let currentRefunded =
                last.price.flatMap {
                    Self.refunded(last.latest, price: $0.milliunits, currency: currency, asOf: asOf)
                } != nil
            let status: CommitmentLine.Status
            if charges.count >= total, asOf >= (terms.commitmentExpiresDate ?? lastEnds) {
                status = .completed
            } else if currentRefunded || expired.contains(original) || asOf >= lastEnds + billingRetryLimitMillis {
                status = .ended
            } else {
                status = .active
            }
            lines.append(
                CommitmentLine(
                    originalTransactionID: original, userIDs: try users(original), productID: last.latest.productID,
                    currency: currency, commitmentPrice: commitmentPrice, periodsTotal: total,
                    periodsBilled: charges.count, billed: billed, refunded: refunded,
                    unbilled: status == .active ? max(0, commitmentPrice - billed) : 0,
                    commitmentExpires: terms.commitmentExpiresDate, status: status,
                    renewsAfter: renewal?.commitmentAutoRenewStatus.map { $0 == 1 },
                    currentPeriod: last.latest.terms.billingPeriodNumber ?? charges.count))
        }
        return lines
    }

    /// What Apple refunded of one charge by `asOf`: all of it, or `price × revocationPercentage / 100000` rounded half
    /// away from zero to the currency's minor unit; nil when not refunded (a family member's revocation moves no money).
    static func refunded(_ s: CommitmentStatement, price: Int64, currency: String, asOf: Int64) -> Int64? {
        guard let date = s.revocationDate, date <= asOf, s.revocationType != "FAMILY_REVOKE" else { return nil }
        if s.revocationType == "REFUND_PRORATED", let share = s.revocationPercentage {
            let share = min(max(share, 0), 100_000)
            return share == 100_000 ? price : RecognitionSchedule.prorated(price, share, currency: currency)
        }
        return price
    }
}
