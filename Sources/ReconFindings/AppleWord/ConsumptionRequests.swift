import ReconModel
import ReconStorage

/// Every `CONSUMPTION_REQUEST` known by the as-of, with the answer the ledger supports and where it stands
/// (CONTRACT §7).
///
/// - `consented` from the consents at the request's time (`unknown` when the store holds none);
/// - `deliveryStatus` `DELIVERED` where the ledger delivered the transaction by the as-of, else `UNDELIVERED_OTHER`;
/// - `sampleContentProvided` from the catalog; `refundPreference` `GRANT_FULL` when undelivered;
/// - `outcome` from Apple's later `REFUND` or `REFUND_DECLINED` about the same transaction.
public enum ConsumptionRequests {
    /// The lines, by request time then notification uuid.
    package static func lines(
        notices: [AppleNotice], store: any AppleWordRepository, catalog: [String: [CatalogProduct]], asOf: Int64
    ) throws -> [ConsumptionRequestLine] {
        let requests = notices.filter { $0.type == "CONSUMPTION_REQUEST" && $0.transactionID != nil }
        guard !requests.isEmpty else { return [] }
        let consents = try store.consents()
        let answers = try store.consumptionAnswers()
        var lines: [ConsumptionRequestLine] = []
        for request in requests {
            guard let transactionID = request.transactionID else { continue }
            let facts = try store.ledgerFacts(transactionID: transactionID)
            let consented: ConsumptionRequestLine.Consented
            if consents.isEmpty {
                consented = .unknown
            } else {
                let holds = facts.userIDs.contains { consents[$0]?.holds(at: request.signedDate) == true }
                consented = holds ? .yes : .no
            }
            let delivered = facts.deliveredAt.map { $0 <= asOf } ?? false
            let productID = request.productID ?? facts.productID
            let sample = productID.flatMap { catalog[$0]?.contains { $0.sampleContent } } ?? false
            // Apple's word after the request: a refund, or a refund declined, about the same transaction.
            let outcome =
                notices.last {
                    ($0.type == "REFUND" || $0.type == "REFUND_DECLINED") && $0.transactionID == transactionID
                        && $0.signedDate >= request.signedDate
                }?.type
            let answer = answers[request.uuid]
            let answeredAt = answer?.answeredAt.flatMap { $0 <= asOf ? $0 : nil }
            let inFlight = answer.map { $0.answeredAt == nil && $0.failure == nil && $0.sentAt <= asOf } ?? false
            lines.append(
                ConsumptionRequestLine(
                    notificationUUID: request.uuid, transactionID: transactionID,
                    originalTransactionID: request.originalTransactionID, userIDs: facts.userIDs,
                    productID: productID, environment: request.environment, reason: request.consumptionRequestReason,
                    requestedAt: request.signedDate, consented: consented,
                    deliveryStatus: delivered ? "DELIVERED" : "UNDELIVERED_OTHER", consumptionPercentage: nil,
                    sampleContentProvided: sample, refundPreference: delivered ? nil : "GRANT_FULL",
                    answeredAt: answeredAt, answerInFlight: inFlight, outcome: outcome,
                    amount: facts.applePrice ?? facts.amount))
        }
        return lines
    }
}
