import Foundation
import Logging

/// What a lookup concluded: the report, or why an order id could not be turned into
/// transactions. The `lookup` command and the support web view both print this.
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

extension Lookup {
    /// Answers a support question from the store, opened read-only, as one consistent snapshot.
    ///
    /// An order id is first resolved to its transactions with Apple's Look Up Order ID, which
    /// needs App Store Server API credentials; everything else works offline.
    ///
    /// - Throws: ``ConfigError`` for an order id without credentials; ``StoreError`` (e.g.
    ///   ``StoreError/noStore(path:)``) when the store cannot be read.
    public static func answer(_ subject: LookupSubject, config: ReconConfig, logger: Logger) async throws
        -> LookupAnswer
    {
        var subject = subject
        if case .order(let orderID, _) = subject {
            guard config.hasServerAPICredentials else {
                throw ConfigError.invalid(
                    key: "order-id", value: orderID,
                    expected:
                        "App Store Server API credentials to look it up: set IAP_RECON_API_KEY_FILE, IAP_RECON_API_KEY_ID, IAP_RECON_ISSUER_ID and --bundle-id"
                )
            }
            // Fail on a missing store before asking Apple anything.
            _ = try ReconStore.openReadOnly(path: config.databasePath)
            switch try await Jobs.resolveOrder(orderID, config: config, logger: logger) {
            case .success(let ids): subject = .order(orderID, transactionIDs: ids)
            case .failure(let message): return .unresolvedOrder(orderID: orderID, message: message)
            }
        }
        let store = try ReconStore.openReadOnly(path: config.databasePath)
        let resolved = subject
        return .report(try store.read { try build(resolved, store: store, bundleIDs: Set(config.bundleIDs)) })
    }
}
