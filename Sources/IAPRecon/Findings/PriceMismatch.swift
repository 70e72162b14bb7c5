/// `PRICE_MISMATCH`: the recorded price differs from Apple's or the catalog's.
///
/// Rule, per row that stands as revenue and records a price: compared with Apple's unit price
/// (JWS / Server API `price`, trusted sources first; matching any one of them is enough), else
/// with the catalog price for the row's product and storefront. A different currency is a
/// mismatch against Apple and against the storefront's own catalog row; against the catalog's
/// default row (no row for the storefront) only a same-currency price is compared, since the
/// default row's currency says nothing about another storefront. The amount is the difference
/// × quantity (empty across currencies). A row recorded at price 0 (a free trial, a restore or a
/// promotion not booked as revenue) is only compared with Apple's price, never with the catalog's.
/// A row whose product differs from Apple's is
/// `PRODUCT_MISMATCH` only: its price differs because the product does.
public struct PriceMismatch: TransactionDetector {
    public let code = FindingCode.priceMismatch

    /// The detector.
    public init() {}

    public func inspect(_ facts: TransactionFacts, into findings: inout FindingCollector) {
        let group = facts.group
        let context = facts.context

        let applePrices = TransactionFacts.preferred(facts.usable) { $0.entry.price }
        for row in group.records.sorted(by: LedgerTransaction.bookingOrder) where facts.standsAsRevenue(row) {
            guard let recorded = row.price, facts.appleProduct(differingFrom: row) == nil,
                let (reference, source) = PriceMismatch.reference(
                    for: row, recorded: recorded, apple: applePrices,
                    context: context)
            else { continue }
            let amount = Money.difference(
                recorded.times(row.quantity), reference.times(row.quantity))
            findings.report(
                Finding(
                    code, transactionID: row.transactionID, originalTransactionID: row.originalTransactionID,
                    userIDs: [row.userID], productID: row.productID, environment: .production, amount: amount,
                    message: .priceMismatch(row, recorded: recorded, reference: reference, source: source),
                    recordIDs: [row.recordID], receiptID: row.receiptID))
        }
    }

    /// The price the row disagrees with and who states it; nil when it agrees or nothing compares.
    private static func reference(
        for row: LedgerTransaction, recorded: Money, apple: [Money], context: DetectionContext
    ) -> (Money, String)? {
        if let first = apple.first {
            return apple.contains(where: { $0.isSame(as: recorded) }) ? nil : (first, "Apple charged")
        }
        guard recorded.milliunits != 0,
            let (catalog, exact) = context.catalogRow(row.productID, storefront: row.storefront),
            let price = catalog.price,
            exact || price.currency.uppercased() == recorded.currency.uppercased(),
            !price.isSame(as: recorded)
        else { return nil }
        let storefront = catalog.storefront.map { " for \($0)" } ?? ""
        return (price, "the catalog\(storefront) lists")
    }
}

fileprivate extension Finding.Message {
    static func priceMismatch(_ row: LedgerTransaction, recorded: Money, reference: Money, source: String) -> Self {
        Self(
            "Record \(row.recordID) (transaction \(row.transactionID), \(row.productID)) records a price of "
                + "\(recorded.text) but \(source) \(reference.text)")
    }
}
