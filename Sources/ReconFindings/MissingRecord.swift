import AppleData
import ReconModel
import ReconStorage

/// `MISSING_RECORD`: Apple shows a paid purchase the ledger has no record of ("I paid and got
/// nothing").
///
/// Rule, per transaction id with no ledger rows: authentic evidence for this app (verifyReceipt
/// status 0, Server API, or an offline receipt/JWS whose signature was verified — never bare
/// unverified offline evidence) shows the transaction; the evidence puts it in Production by a
/// trusted source; Apple has not refunded or revoked it; and it is not a family-shared copy
/// (`inAppOwnershipType` `FAMILY_SHARED`: the family member did not pay). The amount is Apple's
/// `price` ("the total amount of the transaction for the quantity the customer purchased"), else
/// the catalog price × quantity; under an offer Apple's price, 0 for a free trial, never the catalog's. Users are the
/// receipts' uploaders.
/// A purchase before `--ledger-start` is older than the ledger itself: not missing from it. A restore or a second
/// device's transaction (a new id with the purchase's original transaction id for a non-consumable, or the same
/// `web_order_line_item_id` for a subscription period) is the same purchase: not missing when the ledger books any
/// id of it, and reported once, under its primary id, when it books none.
public struct MissingRecord: TransactionDetector {
    public let code = FindingCode.missingRecord

    /// The detector.
    public init() {}

    public func inspect(_ facts: TransactionFacts, into findings: inout FindingCollector) {
        let group = facts.group
        let context = facts.context
        guard group.records.isEmpty else { return }
        // Another id of one purchase (a restore, a second device): the ledger books it under its primary id, or
        // the primary id reports it once (SamePurchaseIndex).
        guard context.samePurchase.purchase(of: group.transactionID) == nil else { return }

        let paid = facts.usable.filter(\.isAuthentic)
        guard case .production = facts.environment, let proof = EvidenceRecord.mostDirect(paid),
            !facts.refund.isCancelled,
            !facts.familyShared
        else { return }
        let product = TransactionFacts.preferred(facts.usable) { $0.entry.productID }.first
        let quantity = TransactionFacts.preferred(facts.usable) { $0.entry.quantity }.first ?? 1
        let storefront = TransactionFacts.preferred(facts.usable) { $0.entry.storefront }.first
        let purchased = TransactionFacts.preferred(facts.usable) { $0.entry.purchaseDate }.first
        if let start = context.ledgerStart, let purchased, purchased < start { return }
        // Under an offer (a free trial, an introductory price) Apple's price, never the catalog's.
        let amount =
            facts.offer != nil
            ? facts.offerValue(recorded: nil, productID: product, storefront: storefront)
            : facts.applePrice
                ?? product.flatMap {
                    context.catalogValue($0, storefront: storefront, quantity: quantity)
                }
        let uploaders = facts.usable.compactMap(\.uploaderUserID)
        let receipt = paid.compactMap(\.receiptID).first ?? facts.usable.compactMap(\.receiptID).first
        findings.report(
            Finding(
                code, transactionID: group.transactionID,
                originalTransactionID: TransactionFacts.preferred(facts.usable) { $0.entry.originalTransactionID }
                    .first,
                userIDs: uploaders, productID: product, environment: .production, amount: amount,
                message: .missingRecord(
                    group.transactionID, product: product, purchased: purchased, amount: amount,
                    uploaders: uploaders, evidence: proof),
                receiptID: receipt))
    }
}

fileprivate extension Finding.Message {
    static func missingRecord(
        _ transactionID: String, product: String?, purchased: Int64?, amount: Money?, uploaders: [String],
        evidence: EvidenceRecord
    ) -> Self {
        var facts: [String] = []
        if let product { facts.append(product) }
        if let amount { facts.append(amount.text) }
        if let purchased { facts.append("purchased \(FindingText.timestamp(purchased))") }
        let what = facts.isEmpty ? "" : " (\(facts.joined(separator: ", ")))"
        let users = Array(Set(uploaders)).sorted()
        // The uploader goes with the receipt cited; a notification or Server API answer was
        // uploaded by nobody, so a receipt that also lists the purchase is named after it.
        let who: String
        if users.isEmpty {
            who = ""
        } else if evidence.receiptID != nil {
            who = ", uploaded by user \(FindingText.list(users)),"
        } else {
            who = " (a receipt uploaded by user \(FindingText.list(users)) lists it too),"
        }
        return Self(
            "Transaction \(transactionID)\(what) is a paid Production purchase according to "
                + "\(FindingText.describe(evidence))\(who) but the ledger has no record of it")
    }
}
