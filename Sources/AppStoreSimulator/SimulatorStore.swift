import Crypto
import Foundation
import IAPRecon

/// An HTTP answer the simulator's logic produced, before Hummingbird sends it.
struct SimulatorReply: Sendable {
    var status: Int
    var headers: [String: String] = [:]
    var body: Data

    /// A JSON answer (keys sorted).
    static func json(_ status: Int, _ object: [String: SimJSON], headers: [String: String] = [:]) -> SimulatorReply {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(object)) ?? Data("{}".utf8)
        var all = headers
        all["content-type"] = "application/json"
        return SimulatorReply(status: status, headers: all, body: data)
    }

    /// An answer with no body (Apple's bare 401).
    static func empty(_ status: Int) -> SimulatorReply {
        SimulatorReply(status: status, body: Data())
    }

    /// A Server API error body.
    static func apiError(_ status: Int, code: Int64, message: String, headers: [String: String] = [:]) -> SimulatorReply
    {
        json(status, ["errorCode": .integer(code), "errorMessage": .string(message)], headers: headers)
    }
}

/// A JSON value the simulator writes.
///
/// Encoding these is far cheaper than `JSONSerialization` (which dominated the cost per request).
enum SimJSON: Encodable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral
{
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case object([String: SimJSON])
    case array([SimJSON])

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int64) { self = .integer(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        }
    }
}

/// The seed, indexed for the routes; immutable once built.
struct SimulatorStore: Sendable {
    let seed: SimulatorSeed
    let transactions: [String: SimulatorTransaction]
    /// Transactions by original id, sorted by purchase date then id.
    let families: [String: [SimulatorTransaction]]
    let receipts: [String: SimulatorReceipt]
    let orders: [String: [SimulatorTransaction]]
    let pageSize: Int
    let apiPublicKey: P256.Signing.PublicKey?
    /// Transactions a later purchase upgraded (they read `isUpgraded`), with the upgrade's date.
    let upgraded: [String: Int64]
    /// How each listed subscription renews, by original transaction id.
    let subscriptions: [String: SimulatorSubscription]

    /// Every app the seed sells for: a Server API token may name any of them.
    var bundleIDs: Set<String> { Set([seed.bundleId] + seed.transactions.compactMap(\.bundleId)) }

    /// Whether `transaction` is `bundleID`'s (nil: any app); a token for another app does not
    /// see it, as Apple answers another app's transaction id with "not found".
    func belongs(_ transaction: SimulatorTransaction, to bundleID: String?) -> Bool {
        guard let bundleID else { return true }
        return (transaction.bundleId ?? seed.bundleId) == bundleID
    }

    init(_ seed: SimulatorSeed) throws(SimulatorError) {
        self.seed = seed
        var transactions: [String: SimulatorTransaction] = [:]
        for transaction in seed.transactions {
            guard transactions[transaction.transactionId] == nil else {
                throw .invalidSeed("transaction \(transaction.transactionId) appears twice")
            }
            switch transaction.storeEnvironment {
            case .production, .sandbox: break
            default:
                throw .invalidSeed(
                    "transaction \(transaction.transactionId) has environment '\(transaction.environment)' (Production or Sandbox)"
                )
            }
            transactions[transaction.transactionId] = transaction
        }
        var receipts: [String: SimulatorReceipt] = [:]
        for (index, receipt) in seed.receipts.enumerated() {
            guard let key = receipt.key else { throw .invalidSeed("receipt #\(index + 1) has neither sha256 nor data") }
            guard key.count == 64, key.allSatisfy(\.isHexDigit) else {
                throw .invalidSeed("receipt #\(index + 1): sha256 is not 64 hex digits")
            }
            for id in receipt.transactionIds where transactions[id] == nil {
                throw .invalidSeed("receipt #\(index + 1) names unknown transaction \(id)")
            }
            receipts[key] = receipt
        }
        self.transactions = transactions
        self.receipts = receipts
        self.families = Dictionary(grouping: seed.transactions, by: \.originalID).mapValues(Self.chronological)
        self.orders = Dictionary(
            grouping: seed.transactions.filter { $0.orderId != nil }, by: { $0.orderId ?? "" }
        ).mapValues(Self.chronological)
        self.pageSize = max(1, seed.historyPageSize ?? 20)
        self.upgraded = Dictionary(
            seed.transactions.compactMap { t in t.upgradedFromTransactionId.map { ($0, t.purchaseDate) } },
            uniquingKeysWith: min)
        var subscriptions: [String: SimulatorSubscription] = [:]
        for subscription in seed.subscriptions ?? [] {
            guard subscriptions[subscription.originalTransactionId] == nil else {
                throw .invalidSeed("subscription \(subscription.originalTransactionId) appears twice")
            }
            subscriptions[subscription.originalTransactionId] = subscription
        }
        self.subscriptions = subscriptions
        if let apiKey = seed.apiKey {
            guard let key = try? P256.Signing.PublicKey(pemRepresentation: apiKey.publicKeyPEM) else {
                throw .invalidSeed("apiKey.publicKeyPEM is not a P-256 public key")
            }
            self.apiPublicKey = key
        } else {
            self.apiPublicKey = nil
        }
    }

    static func chronological(_ list: [SimulatorTransaction]) -> [SimulatorTransaction] {
        list.sorted { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) }
    }
}
