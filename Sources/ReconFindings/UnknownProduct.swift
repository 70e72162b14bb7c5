import AppleData
import ReconModel
import ReconStorage

/// `UNKNOWN_PRODUCT`: a product id the catalog does not list.
///
/// Rule, only when a catalog is loaded: rows that stand as revenue (Production, not `invalid`,
/// not a test purchase by the evidence) whose product id has no catalog row. One finding per
/// transaction id and product; the amount is the value of those rows (revenue that cannot be
/// classified or given a proceeds rate). Test purchases of products not yet in the catalog are
/// not reported.
public struct UnknownProduct: TransactionDetector {
    public let code = FindingCode.unknownProduct

    /// The detector.
    public init() {}

    public func inspect(_ facts: TransactionFacts, into findings: inout FindingCollector) {
        let group = facts.group
        let context = facts.context
        guard !context.catalog.isEmpty else { return }

        let rows = group.records.filter { facts.standsAsRevenue($0) && context.catalog[$0.productID] == nil }
            .sorted(by: LedgerTransaction.bookingOrder)
        var products: [String] = []
        for row in rows where !products.contains(row.productID) { products.append(row.productID) }
        for product in products {
            let matching = rows.filter { $0.productID == product }
            guard let first = matching.first else { continue }
            var amount = MoneyTally()
            for row in matching { amount.add(facts.value(of: row), for: row.recordID) }
            findings.report(
                Finding(
                    code, transactionID: group.transactionID, originalTransactionID: first.originalTransactionID,
                    userIDs: matching.map(\.userID), productID: product, environment: .production,
                    amount: amount.amount, message: .unknownProduct(product, rows: matching, amount: amount),
                    recordIDs: matching.map(\.recordID), receiptID: first.receiptID))
        }
    }
}

fileprivate extension Finding.Message {
    static func unknownProduct(_ product: String, rows: [LedgerTransaction], amount: MoneyTally) -> Self {
        let transaction = rows.first?.transactionID ?? "?"
        return Self(
            "Product \(product) is not in the catalog; transaction \(transaction) ("
                + "\(FindingText.records(rows))) books \(amount.text) of revenue for it")
    }
}
