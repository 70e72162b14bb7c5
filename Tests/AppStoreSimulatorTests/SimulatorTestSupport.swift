import AppStoreSimulator
import Crypto
import Foundation
import IAPRecon
import Synchronization

/// The seed every end-to-end test starts from.
enum SimFixture {
    static let bundleID = "com.example.app"
    static let apiKey = SimulatorAPIKey.generate(keyId: "SIMKEY0001", issuerId: "0b4c0bd3-7f5e-4d3a-9b87-1c2d3e4f5a6b")
    static let productionReceipt = Data("production receipt with coins and a subscription".utf8).base64EncodedString()
    static let sandboxReceipt = Data("sandbox receipt".utf8).base64EncodedString()
    static let hashedReceipt = Data("receipt known only by its hash".utf8).base64EncodedString()
    /// Apple's `mock_signed_data/legacyTransaction`: an iOS 6 receipt for transaction 33993399.
    static let legacyReceipt =
        "ewoicHVyY2hhc2UtaW5mbyIgPSAiZXdvaWRISmhibk5oWTNScGIyNHRhV1FpSUQwZ0lqTXpPVGt6TXprNUlqc0tmUW89IjsKfQo="

    static let productionPath = "/production/verifyReceipt"
    static let sandboxPath = "/sandbox/verifyReceipt"

    /// An iOS 6 receipt whose `purchase-info` names `transactionID`.
    static func iOS6Receipt(transactionID: String, environment: String = "Sandbox") -> String {
        let info = Data("{\n\t\"transaction-id\" = \"\(transactionID)\";\n\t\"product-id\" = \"x\";\n}".utf8)
            .base64EncodedString()
        return Data("{\n\t\"purchase-info\" = \"\(info)\";\n\t\"environment\" = \"\(environment)\";\n}".utf8)
            .base64EncodedString()
    }

    static func seed(sharedSecret: String? = nil, pageSize: Int = 2) -> SimulatorSeed {
        let base: Int64 = 1_700_000_000_000
        let month: Int64 = 30 * 24 * 3600 * 1000
        var transactions = [
            SimulatorTransaction(
                transactionId: "1000", productId: "coins.100", environment: "Production", purchaseDate: base,
                // Apple's `price` is the total for the quantity: 2 × 0.99.
                quantity: 2, type: "Consumable", price: 1_980, currency: "USD", storefront: "USA", orderId: "MK1000"),
            SimulatorTransaction(
                transactionId: "2000", productId: "coins.100", environment: "Sandbox", purchaseDate: base + 1000,
                type: "consumable", price: 990, currency: "USD", storefront: "USA"),
            SimulatorTransaction(
                transactionId: "4000", productId: "pro.lifetime", environment: "Sandbox", purchaseDate: base + 2000,
                type: "Non-Consumable", price: 19_990, currency: "EUR", storefront: "DEU"),
            SimulatorTransaction(
                transactionId: "33993399", productId: "legacy.gems", environment: "Production",
                purchaseDate: 1_350_000_000_000, quantity: 3, type: "Consumable"),
        ]
        for index in 0..<5 {
            let id = String(3000 + index)
            transactions.append(
                SimulatorTransaction(
                    transactionId: id, originalTransactionId: "3000", productId: "pro.monthly",
                    environment: "Production", purchaseDate: base + Int64(index) * month,
                    originalPurchaseDate: base, expiresDate: base + Int64(index + 1) * month,
                    type: "Auto-Renewable Subscription", price: 4_990, currency: "USD", storefront: "USA",
                    revocationDate: index == 2 ? base + Int64(index) * month + 86_400_000 : nil,
                    revocationReason: index == 2 ? 1 : nil, revocationType: index == 2 ? "REFUND_FULL" : nil,
                    revocationPercentage: index == 2 ? 100_000 : nil,
                    orderId: index == 0 ? "MK3000" : nil, webOrderLineItemId: String(9000 + index)))
        }
        return SimulatorSeed(
            bundleId: bundleID, appAppleId: 1_234_567_890, sharedSecret: sharedSecret, historyPageSize: pageSize,
            apiKey: apiKey.key, transactions: transactions,
            receipts: [
                SimulatorReceipt(data: productionReceipt, environment: "Production", transactionIds: ["1000", "3000"]),
                SimulatorReceipt(data: sandboxReceipt, environment: "Sandbox", transactionIds: ["2000"]),
                SimulatorReceipt(
                    sha256: SimulatorReceipt.hash(hashedReceipt), environment: "Production", transactionIds: ["1000"]),
            ])
    }

    /// Fast real backoff: 10 ms doubling to 40 ms, 4 attempts.
    static func fastPolicy(maxAttempts: Int = 4, clock: any ReconClock = SystemClock()) -> RetryPolicy {
        RetryPolicy(
            maxAttempts: maxAttempts, budget: .seconds(30), baseDelay: .milliseconds(10), maxDelay: .milliseconds(40),
            jitter: 0.5, random: { 0.5 }, clock: clock)
    }

    static func apiKey(privateKeyPEM: String = apiKey.privateKeyPEM) throws -> AppStoreAPIKey {
        try AppStoreAPIKey(
            keyID: apiKey.key.keyId, issuerID: apiKey.key.issuerId, bundleID: bundleID, privateKeyPEM: privateKeyPEM)
    }
}

/// Runs `body` against a fresh simulator and a real AsyncHTTPClient transport, then stops both.
func withSimulator<Result: Sendable>(
    seed: SimulatorSeed = SimFixture.seed(), faults: FaultPlan = .none,
    _ body: (AppStoreSimulator, AsyncHTTPTransport) async throws -> Result
) async throws -> Result {
    let simulator = try await AppStoreSimulator.start(seed: seed, faults: faults, maxHang: .seconds(5))
    let transport = AsyncHTTPTransport(
        configuration: .init(maxConnectionsPerHost: 8, connectTimeout: .seconds(10), readTimeout: .seconds(20)))
    do {
        let result = try await body(simulator, transport)
        try await transport.shutdown()
        await simulator.stop()
        return result
    } catch {
        try? await transport.shutdown()
        await simulator.stop()
        throw error
    }
}

/// A clock whose sleeps return at once and are recorded; "now" is real time plus the slept total
/// (the simulator's `Retry-After` dates are real time).
final class RecordingClock: ReconClock {
    private let state = Mutex<(offset: TimeInterval, sleeps: [Duration])>((0, []))

    func now() -> Date {
        Date().addingTimeInterval(state.withLock { $0.offset })
    }

    func sleep(for duration: Duration) async throws {
        state.withLock {
            $0.sleeps.append(duration)
            $0.offset += Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
    }

    var sleeps: [Duration] { state.withLock { $0.sleeps } }
}

/// The JSON object inside one base64url JWS/JWT segment.
func jsonSegment(_ segment: Substring) -> [String: Any]? {
    guard let data = base64URLData(segment) else { return nil }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
}

func base64URLData(_ segment: Substring) -> Data? {
    var base64 = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    return Data(base64Encoded: base64)
}

/// The payload of a compact JWS.
func jwsPayload(_ jws: String) -> [String: Any]? {
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    return jsonSegment(parts[1])
}

/// A hand-made bearer token, to send what the client never would.
func handmadeToken(
    claims: [String: Any], kid: String = SimFixture.apiKey.key.keyId, keyPEM: String = SimFixture.apiKey.privateKeyPEM
)
    throws -> String
{
    let key = try P256.Signing.PrivateKey(pemRepresentation: keyPEM)
    func encode(_ object: [String: Any]) throws -> String {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
    let input = try encode(["alg": "ES256", "kid": kid, "typ": "JWT"]) + "." + encode(claims)
    let signature = try key.signature(for: Data(input.utf8)).rawRepresentation.base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
    return input + "." + signature
}
