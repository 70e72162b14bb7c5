import AppleData
import ReconModel
import ReconStorage

/// `PRICE_MISMATCH`: the recorded price differs from Apple's or the catalog's.
///
/// Rule, per row that stands as revenue and records a price: its total (unit price × quantity)
/// compared with Apple's `price`, which Apple documents as "the total amount of the transaction
/// for the quantity the customer purchased" (JWS / Server API, trusted sources first; matching any
/// one of them is enough), else its unit price with the catalog price for the row's product and
/// storefront. A different currency is a mismatch against Apple and against the storefront's own
/// catalog row; a row without a storefront, or without a catalog row for its storefront, is
/// compared only with a catalog row in its own currency. The amount is the difference of the
/// totals (empty across currencies). A row recorded at price 0 (a free trial, a restore or a
/// promotion not booked as revenue) is only compared with Apple's price, never with the catalog's; so is a purchase
/// Apple made under an offer (verifyReceipt `is_trial_period`/`is_in_intro_offer_period`, JWS `offerType`): the
/// catalog does not know offer prices, and a free trial's price is Apple's 0.
/// A row whose product differs from Apple's is
/// `PRODUCT_MISMATCH` only: its price differs because the product does.
public struct PriceMismatch: TransactionDetector {
    public let code = FindingCode.priceMismatch

    /// The detector.
    public init() {}

    public func inspect(_ facts: TransactionFacts, into findings: inout FindingCollector) {
        let context = facts.context

        let applePrices = TransactionFacts.preferred(facts.usable) { $0.entry.price }
        for row in facts.booked where facts.standsAsRevenue(row) {
            guard let recorded = row.price, facts.appleProduct(differingFrom: row) == nil else { continue }
            // A free trial Apple states no price for cost nothing: that is Apple's price. Any other offer has a
            // price of its own, which the catalog does not know.
            var apple = applePrices
            if apple.isEmpty, facts.offer == .freeTrial { apple = [Money(milliunits: 0, currency: recorded.currency)] }
            guard !apple.isEmpty || facts.offer == nil,
                let (reference, source) = PriceMismatch.reference(
                    for: row, recorded: recorded, apple: apple, context: context)
            else { continue }
            let recordedTotal = recorded.times(row.quantity)
            let referenceTotal = source.isApple ? reference : reference.times(row.quantity)
            let amount = Money.difference(recordedTotal, referenceTotal)
            findings.report(
                Finding(
                    code, row: row, environment: .production, amount: amount,
                    message: .priceMismatch(row, recorded: recorded, reference: reference, source: source)))
        }
    }

    /// Who states the reference price: Apple (a total for the quantity) or the catalog (per unit).
    package enum Source {
        case apple
        case catalog(storefront: String?)

        package var isApple: Bool {
            if case .apple = self { return true }
            return false
        }
    }

    /// The price the row disagrees with and who states it; nil when it agrees or nothing compares.
    private static func reference(
        for row: LedgerTransaction, recorded: Money, apple: [Money], context: DetectionContext
    ) -> (Money, Source)? {
        if let first = apple.first {
            guard let total = recorded.times(row.quantity) else { return nil }
            return apple.contains(where: { $0.isSame(as: total) }) ? nil : (first, .apple)
        }
        guard recorded.milliunits != 0,
            let (catalog, exact) = context.catalogRow(
                row.productID, storefront: row.storefront, currency: recorded.currency),
            let price = catalog.price,
            exact || price.currency.uppercased() == recorded.currency.uppercased(),
            !price.isSame(as: recorded)
        else { return nil }
        return (price, .catalog(storefront: catalog.storefront))
    }
}

fileprivate extension Finding.Message {
    static func priceMismatch(
        _ row: LedgerTransaction, recorded: Money, reference: Money, source: PriceMismatch.Source
    ) -> Self {
        let what = "Record \(row.recordID) (transaction \(row.transactionID), \(row.productID)) records a price of "
        switch source {
        case .apple where row.quantity != 1:
            let total = recorded.times(row.quantity).map(\.text) ?? "overflow"
            return Self(
                what + "\(recorded.text) × \(row.quantity) = \(total) "
                    + "but Apple charged \(reference.text) in total")
        case .apple:
            return Self(what + "\(recorded.text) but Apple charged \(reference.text)")
        case .catalog(let storefront):
            let place = storefront.map { " for \($0)" } ?? ""
            return Self(
                what + "\(recorded.text) but the catalog\(place) lists "
                    + "\(reference.text)")
        }
    }
}
