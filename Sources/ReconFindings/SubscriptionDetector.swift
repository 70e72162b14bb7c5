import AppleData
import ReconModel
import ReconStorage

/// A rule over one compared entitlement (``SubscriptionLine``).
public protocol SubscriptionDetector: Sendable {
    var code: FindingCode { get }
    /// Reports what the rule finds about `line`; `tolerance` is `--entitlement-tolerance` in milliseconds.
    func inspect(_ line: SubscriptionLine, tolerance: Int64, asOf: Int64, into findings: inout FindingCollector)
}

extension Finding {
    /// A finding about one entitlement: filed under the subscription's original transaction id, naming its user and
    /// product; its identity is the entitlement (user and original transaction id).
    package init(_ code: FindingCode, entitlement e: Entitlement, amount: Money?, message: Message) {
        self.init(
            code, transactionID: e.originalTransactionID, originalTransactionID: e.originalTransactionID,
            userIDs: [e.userID], productID: e.productID, environment: .production, amount: amount, message: message,
            subject: "entitlement|\(e.userID)")
    }
}

extension FindingText {
    /// `2026-11-18T10:00:00Z`, or `an unknown date`.
    package static func instant(_ millis: Int64?) -> String { millis.map { timestamp($0) } ?? "an unknown date" }
}
