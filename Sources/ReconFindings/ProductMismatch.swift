import AppleData
import ReconModel
import ReconStorage

/// `PRODUCT_MISMATCH`: Apple's product id or quantity differs from what the ledger delivered.
///
/// Rule, per credited row (not `invalid`, a real Production purchase): the product ids (and
/// separately the quantities) stated by the most trustworthy evidence that states them — Apple's
/// answers and verified signatures if any do, else any usable evidence — do not include the row's.
/// When trusted sources disagree among themselves and one agrees with the row, nothing is reported.
/// The amount is the difference between the value delivered and the value paid (catalog prices
/// for different products, Apple's `price` being the total for Apple's quantity; the unit price
/// for a different quantity); empty when it cannot be priced in one currency.
public struct ProductMismatch: TransactionDetector {
    public let code = FindingCode.productMismatch

    /// The detector.
    public init() {}

    public func inspect(_ facts: TransactionFacts, into findings: inout FindingCollector) {
        let group = facts.group

        let appleQuantities = TransactionFacts.preferred(facts.usable) { $0.entry.quantity }
        for row in group.records.sorted(by: LedgerTransaction.bookingOrder) where facts.isCredited(row) {
            let appleProduct = facts.appleProduct(differingFrom: row)
            let appleQuantity = appleQuantities.contains(row.quantity) ? nil : appleQuantities.first
            guard appleProduct != nil || appleQuantity != nil else { continue }
            let amount = ProductMismatch.gap(row, product: appleProduct, quantity: appleQuantity, facts: facts)
            findings.report(
                Finding(
                    code, row: row, environment: .production, amount: amount,
                    message: .productMismatch(row, product: appleProduct, quantity: appleQuantity, amount: amount)))
        }
    }

    /// The value delivered minus the value paid, as a distance.
    private static func gap(
        _ row: LedgerTransaction, product: String?, quantity: Int?, facts: TransactionFacts
    ) -> Money? {
        let context = facts.context
        let paidQuantity = quantity ?? row.quantity
        if let product {
            let delivered =
                context.catalogValue(
                    row.productID, storefront: row.storefront, quantity: row.quantity) ?? row.lineTotal
            let paid =
                facts.applePrice
                ?? context.catalogValue(
                    product, storefront: row.storefront, quantity: paidQuantity)
            return Money.difference(delivered, paid)
        }
        // Apple's `price` is the total for Apple's quantity: its unit price only when it divides.
        let appleUnit = facts.applePrice.flatMap { total -> Money? in
            guard paidQuantity > 0, total.milliunits % Int64(paidQuantity) == 0 else { return nil }
            return Money(milliunits: total.milliunits / Int64(paidQuantity), currency: total.currency)
        }
        let unit = row.price ?? appleUnit ?? context.product(row.productID, storefront: row.storefront)?.price
        guard let unit else { return nil }
        return Money.difference(
            unit.times(row.quantity), unit.times(paidQuantity))
    }
}

fileprivate extension Finding.Message {
    static func productMismatch(_ row: LedgerTransaction, product: String?, quantity: Int?, amount: Money?) -> Self {
        var differences: [String] = []
        if let product { differences.append("product \(product) (ledger: \(row.productID))") }
        if let quantity { differences.append("quantity \(quantity) (ledger: \(row.quantity))") }
        let worth = amount.map { "; the difference is worth \($0.text)" } ?? ""
        return Self(
            "Apple says transaction \(row.transactionID) was for "
                + "\(differences.joined(separator: " and ")), but record \(row.recordID) delivered "
                + "\(row.quantity) × \(row.productID) to user \(row.userID)\(worth)")
    }
}
