import ReconModel

/// `CONSUMPTION_UNANSWERED`: Apple asked for consumption information (a customer asked for a refund) and by the as-of
/// no answer was sent and Apple has not decided; not raised where the user did not consent (nothing may be sent).
///
/// The amount is the transaction's price; the identity is the request (its notification uuid).
public struct ConsumptionUnanswered: Sendable {
    public let code = FindingCode.consumptionUnanswered

    /// The detector.
    public init() {}

    /// Reports the request when it is open at `asOf`.
    public func inspect(_ line: ConsumptionRequestLine, asOf: Int64, into findings: inout FindingCollector) {
        guard line.isOpen, line.consented != .no else { return }
        findings.report(
            Finding(
                code: code, transactionID: line.transactionID, originalTransactionID: line.originalTransactionID,
                userIDs: line.userIDs, productID: line.productID, environment: line.environment, amount: line.amount,
                detail: Finding.Message.unanswered(line, asOf: asOf).text, subject: line.notificationUUID))
    }
}

fileprivate extension Finding.Message {
    static func unanswered(_ line: ConsumptionRequestLine, asOf: Int64) -> Self {
        let reason = line.reason.map { " (\($0))" } ?? ""
        let deadline = FindingText.timestamp(line.deadline)
        let when =
            asOf >= line.deadline
            ? "its 12-hour deadline \(deadline) has passed: Apple decides the refund without the developer's answer"
            : "its 12-hour deadline is \(deadline): run answer-consumption before then"
        let consent =
            line.consented == .unknown ? "; no consents are in the store, so nothing can be sent (CONTRACT §1.10)" : ""
        return Self(
            "Apple asked at \(FindingText.timestamp(line.requestedAt)) for consumption information about a refund "
                + "request\(reason); no answer was sent and Apple has not decided; \(when)\(consent)")
    }
}
