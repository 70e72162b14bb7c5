import Foundation
import ReconFindings
import ReconModel
import ReconStorage

/// What a lookup concluded: the report, or why an order id could not be turned into transactions.
///
/// The `lookup` command and the support web view both print this.
public enum LookupAnswer: Sendable, Hashable {
    case report(LookupReport)
    /// Apple could not resolve the order id; `message` says why, in one line.
    case unresolvedOrder(orderID: String, message: String)

    /// The text view: the report's text, or one line for an unresolved order.
    public func text() -> String {
        switch self {
        case .report(let report): return report.text()
        case .unresolvedOrder(let orderID, let message): return "order \(orderID): \(message)\n"
        }
    }

    /// The JSON view, keys sorted: an unresolved order is a report with nothing in it whose
    /// answer line says why.
    public func json() -> String { report.json() }

    /// The report to show; an unresolved order gives an empty one whose answer says why.
    public var report: LookupReport {
        switch self {
        case .report(let report): return report
        case .unresolvedOrder(let orderID, let message):
            return LookupReport(
                answer: "order \(orderID): \(message)", subject: "order \(orderID)", charged: 0, delivered: 0,
                refunded: 0, openFindings: 0, events: [], findings: [])
        }
    }
}
