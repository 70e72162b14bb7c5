/// What counts as revenue, decided from the ledger and the evidence together. Revenue and the
/// findings both ask these questions, so they agree.
public enum RevenuePolicy {
    /// The environment the evidence puts a transaction in, strongest source first: Apple's own
    /// answers (verifyReceipt, Server API), then offline evidence whose signature verified, then
    /// unverified offline evidence. Nil when no evidence states one.
    public static func evidenceEnvironment(_ evidence: [EvidenceRecord]) -> (StoreEnvironment, trusted: Bool)? {
        func latest(_ filter: (EvidenceRecord) -> Bool) -> StoreEnvironment? {
            evidence.last(where: { filter($0) && $0.effectiveEnvironment != nil })?.effectiveEnvironment
        }
        if let env = latest({ $0.source != .offline }) { return (env, true) }
        if let env = latest({ $0.source == .offline && $0.signature == .verified }) { return (env, true) }
        if let env = latest({ $0.source == .offline }) { return (env, false) }
        return nil
    }

    /// Whether the transaction is a real App Store purchase: trusted evidence decides; evidence
    /// of a non-production environment from any source excludes it; else the ledger's belief.
    public static func isProduction(_ group: TransactionGroup) -> Bool {
        if let (env, trusted) = evidenceEnvironment(group.evidence) {
            if !env.isProduction { return false }
            if trusted { return true }
        }
        return group.records.first.map { $0.environment.isProduction } ?? false
    }

    /// The ledger row that carries the revenue of a transaction: the earliest booked row not
    /// marked invalid. Duplicates of it count once. Nil when nothing counts.
    public static func countedRecord(_ group: TransactionGroup) -> LedgerTransaction? {
        guard isProduction(group) else { return nil }
        return group.records
            .filter { $0.verificationStatus != .invalid }
            .min { ($0.purchaseDate, $0.recordID) < ($1.purchaseDate, $1.recordID) }
    }

    /// The customer price of a row: the ledger's, else Apple's (JWS price), else the catalog's;
    /// times the quantity.
    public static func value(of record: LedgerTransaction, evidence: [EvidenceRecord], catalog: [String: [CatalogProduct]])
        -> Money?
    {
        if let total = record.lineTotal { return total }
        let quantity = Int64(record.quantity)
        if let price = evidence.last(where: { $0.entry.price != nil })?.entry.price {
            return Money(milliunits: price.milliunits * quantity, currency: price.currency)
        }
        if let price = catalogProduct(record.productID, storefront: record.storefront, catalog: catalog)?.price {
            return Money(milliunits: price.milliunits * quantity, currency: price.currency)
        }
        return nil
    }

    /// The catalog row for a product in a storefront, falling back to the default row.
    public static func catalogProduct(_ productID: String, storefront: String?, catalog: [String: [CatalogProduct]])
        -> CatalogProduct?
    {
        guard let rows = catalog[productID] else { return nil }
        if let storefront, let exact = rows.first(where: { $0.storefront == storefront }) { return exact }
        return rows.first(where: { $0.storefront == nil }) ?? rows.first
    }

    /// A refund Apple reports for a transaction.
    public struct Refund: Sendable, Hashable {
        /// Epoch ms of the cancellation or revocation.
        public var date: Int64
        /// Share refunded in thousandths of a percent (100 000 = all of it).
        public var percentage: Int
    }

    /// The refund the evidence shows, if any: the latest evidence that speaks of a cancellation
    /// decides; a later `REFUND_REVERSED` undoes an earlier refund.
    public static func refund(_ evidence: [EvidenceRecord]) -> Refund? {
        let speaking = evidence.filter {
            $0.entry.cancellationDate != nil || $0.entry.revocationType != nil
        }
        guard let latest = speaking.max(by: { ($0.recordedAt, $0.entry.cancellationDate ?? 0) < ($1.recordedAt, $1.entry.cancellationDate ?? 0) })
        else { return nil }
        if isReversal(latest.entry) { return nil }
        guard let date = latest.entry.cancellationDate else { return nil }
        var percentage = 100_000
        if latest.entry.revocationType == "REFUND_PRORATED", let share = latest.entry.revocationPercentage {
            percentage = min(max(share, 0), 100_000)
        }
        return Refund(date: date, percentage: percentage)
    }

    static func isReversal(_ entry: EvidenceEntry) -> Bool {
        entry.revocationType == "REFUND_REVERSED" || entry.cancellationReason == "REFUND_REVERSED"
    }
}
