import AppleData
import ReconModel
import ReconStorage

/// `SHARED_TRANSACTION`: one purchase credited to two or more users (receipt replay, account
/// sharing).
///
/// Two rules:
/// - one transaction id credited (not `invalid`, a real Production purchase) to two or more
///   users;
/// - for non-consumables and subscriptions (by the catalog: original-transaction groups carry no
///   evidence), one original transaction id whose distinct transactions were credited to two or
///   more users. Each transaction id counts once here (its first row): a transaction id that is
///   itself shared is the first rule's finding, not this one's. Reported once per original id,
///   under the transaction id of its first row.
///
/// The amount is the value of what was credited to users after the first one (booking order).
public struct SharedTransaction: TransactionDetector, OriginalTransactionDetector {
    public let code = FindingCode.sharedTransaction

    /// The detector.
    public init() {}

    public func inspect(_ facts: TransactionFacts, into findings: inout FindingCollector) {
        let group = facts.group

        let rows = facts.booked.filter(facts.isCredited)
        // Two or more users: some row credits another user than the first.
        guard let first = rows.first, rows.contains(where: { $0.userID != first.userID }) else { return }
        let later = rows.filter { $0.userID != first.userID }
        var amount = MoneyTally()
        for row in later { amount.add(facts.value(of: row), for: row.recordID) }
        findings.report(
            Finding(
                code, transactionID: group.transactionID, originalTransactionID: first.originalTransactionID,
                userIDs: rows.map(\.userID), productID: first.productID,
                environment: facts.effectiveEnvironment(of: first), amount: amount.amount,
                message: .sharedTransaction(group.transactionID, first: first, later: later, amount: amount),
                recordIDs: rows.map(\.recordID), receiptID: first.receiptID))
    }

    public func inspect(
        _ group: OriginalTransactionGroup, in context: DetectionContext, into findings: inout FindingCollector
    ) {
        // Original groups carry no evidence: the ledger's word on environment and status stands.
        let credited = group.records.filter(\.ledgerCountsAsRevenue)
        let types = credited.compactMap { context.product($0.productID, storefront: $0.storefront)?.type }
        // A known consumable never shares an entitlement; an unknown product cannot be judged.
        guard !types.isEmpty, types.allSatisfy(\.isEntitlement) else { return }
        let purchases = LedgerTransaction.firstRowPerTransaction(credited)
        guard let first = purchases.first, Set(purchases.map(\.userID)).count >= 2 else { return }
        let later = purchases.filter { $0.userID != first.userID }
        var amount = MoneyTally()
        for row in later {
            amount.add(context.value(of: row, applePrice: nil), for: row.recordID)
        }
        findings.report(
            Finding(
                code, transactionID: first.transactionID, originalTransactionID: group.originalTransactionID,
                userIDs: purchases.map(\.userID), productID: first.productID, environment: first.environment,
                amount: amount.amount,
                message: .sharedOriginal(group.originalTransactionID, first: first, later: later, amount: amount),
                recordIDs: purchases.map(\.recordID), receiptID: first.receiptID))
    }
}

fileprivate extension Finding.Message {
    static func sharedTransaction(
        _ transactionID: String, first: LedgerTransaction, later: [LedgerTransaction], amount: MoneyTally
    ) -> Self {
        let others = FindingText.list(later.map { "\($0.userID) (record \($0.recordID))" })
        return Self(
            "Transaction \(transactionID) was first credited to user \(first.userID) (record \(first.recordID)) "
                + "and then also to \(others); \(amount.text) credited to other users")
    }

    static func sharedOriginal(
        _ originalID: String, first: LedgerTransaction, later: [LedgerTransaction], amount: MoneyTally
    ) -> Self {
        let others = FindingText.list(later.map { "\($0.userID) (transaction \($0.transactionID))" })
        return Self(
            "Purchase \(originalID) (\(first.productID)) belongs to user \(first.userID) "
                + "(transaction \(first.transactionID)) but was also credited to \(others); "
                + "\(amount.text) credited to other users")
    }
}
