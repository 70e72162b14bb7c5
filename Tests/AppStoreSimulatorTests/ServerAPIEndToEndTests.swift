import AppStoreSimulator
import Crypto
import Foundation
import IAPRecon
import Testing

@Suite("App Store Server API against the simulator")
struct ServerAPIEndToEndTests {
    func client(
        _ simulator: AppStoreSimulator, _ transport: AsyncHTTPTransport, key: AppStoreAPIKey? = nil,
        policy: RetryPolicy = SimFixture.fastPolicy()
    ) throws -> AppStoreServerAPIClient {
        try AppStoreServerAPIClient(
            key: key ?? SimFixture.apiKey(), endpoints: simulator.endpoints(requestTimeout: .seconds(20)),
            transport: transport, retryPolicy: policy, rateLimiter: .unlimited())
    }

    @Test("Get Transaction Info: a JWS signed by the simulator's CA")
    func transactionInfo() async throws {
        try await withSimulator { simulator, transport in
            let answer = try #require(
                try await client(simulator, transport).transactionInfo(transactionID: "1000").value)
            #expect(answer.environment == .production)
            #expect(answer.attempts == 1)
            let parts = answer.signedTransactionInfo.split(separator: ".", omittingEmptySubsequences: false)
            #expect(parts.count == 3)
            let header = try #require(jsonSegment(parts[0]))
            #expect(header["alg"] as? String == "ES256")
            let chain = try #require(header["x5c"] as? [String])
            #expect(chain.count == 3)
            #expect(chain.last.flatMap { Data(base64Encoded: $0) } == Data(simulator.rootCertificateDER))
            let payload = try #require(jwsPayload(answer.signedTransactionInfo))
            #expect(payload["transactionId"] as? String == "1000")
            #expect(payload["originalTransactionId"] as? String == "1000")
            #expect(payload["bundleId"] as? String == SimFixture.bundleID)
            #expect(payload["productId"] as? String == "coins.100")
            #expect(payload["environment"] as? String == "Production")
            #expect((payload["price"] as? Int) == 1_980)
            #expect(payload["currency"] as? String == "USD")
            #expect((payload["quantity"] as? Int) == 2)
            #expect(payload["type"] as? String == "Consumable")
            #expect((payload["purchaseDate"] as? Int) == 1_700_000_000_000)
            // The leaf's key verifies the signature.
            let leaf = try #require(chain.first.flatMap { Data(base64Encoded: $0) })
            #expect(leaf == Data(simulator.authority.leafDER))
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(base64URLData(parts[2])))
            #expect(
                simulator.authority.leafKey.publicKey.isValidSignature(
                    signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
        }
    }

    @Test("Sandbox fallback on 4040010: one request each")
    func sandboxFallback() async throws {
        try await withSimulator { simulator, transport in
            let answer = try #require(
                try await client(simulator, transport).transactionInfo(transactionID: "4000").value)
            #expect(answer.environment == .sandbox)
            #expect(answer.attempts == 2)
            #expect(jwsPayload(answer.signedTransactionInfo)?["environment"] as? String == "Sandbox")
            #expect(simulator.requestLog.count(path: "/production/inApps/v1/transactions/4000") == 1)
            #expect(simulator.requestLog.count(path: "/sandbox/inApps/v1/transactions/4000") == 1)
        }
    }

    @Test("Unknown in both environments: 404 / 4040010 surfaced")
    func notFoundAnywhere() async throws {
        try await withSimulator { simulator, transport in
            let failure = try #require(
                try await client(simulator, transport).transactionInfo(transactionID: "999").failure)
            #expect(failure.httpStatus == 404)
            #expect(failure.apiError == .transactionIDNotFound)
            #expect(failure.message == "Transaction id not found.")
            #expect(failure.environment == .sandbox)
            #expect(failure.attempts == 2)
        }
    }

    @Test("A token signed by another key is rejected: 401 surfaced after the sandbox try")
    func wrongKey() async throws {
        try await withSimulator { simulator, transport in
            let other = SimulatorAPIKey.generate()
            let key = try SimFixture.apiKey(privateKeyPEM: other.privateKeyPEM)
            let failure = try #require(
                try await client(simulator, transport, key: key).transactionInfo(transactionID: "1000").failure)
            #expect(failure.httpStatus == 401)
            #expect(failure.apiError == nil)
            #expect(failure.attempts == 2)
            #expect(simulator.requestLog.requests.map(\.status) == [401, 401])
        }
    }

    @Test("An expired token is rejected: 401")
    func expired() async throws {
        try await withSimulator { simulator, transport in
            let past = Date().addingTimeInterval(-7200)
            let failure = try #require(
                try await client(simulator, transport, policy: SimFixture.fastPolicy(clock: ManualClock(past)))
                    .transactionInfo(
                        transactionID: "1000", environment: .production
                    ).failure)
            #expect(failure.httpStatus == 401)
            #expect(simulator.requestLog.total == 1)
        }
    }

    @Test(
        "Hand-made tokens: wrong aud, bid, iss, kid or a lifetime over 60 minutes are rejected",
        arguments: [
            "aud", "bid", "iss", "kid", "lifetime",
        ])
    func handmadeTokens(breaking: String) async throws {
        try await withSimulator { simulator, transport in
            let now = Int(Date().timeIntervalSince1970)
            var claims: [String: Any] = [
                "iss": SimFixture.apiKey.key.issuerId, "iat": now, "exp": now + 600, "aud": "appstoreconnect-v1",
                "bid": SimFixture.bundleID,
            ]
            let url = simulator.endpoints().serverAPIProduction.appendingPathComponent("inApps/v1/transactions/1000")
            func send(_ token: String) async throws -> Int {
                let request = AppleHTTPRequest(
                    method: .get, url: url, headers: ["authorization": "Bearer " + token],
                    endpoint: .transactionInfo, environment: .production)
                return try await transport.send(request, timeout: .seconds(20)).status
            }
            let accepted = try await send(try handmadeToken(claims: claims))
            #expect(accepted == 200)
            var kid = SimFixture.apiKey.key.keyId
            switch breaking {
            case "aud": claims["aud"] = "appstoreconnect-v2"
            case "bid": claims["bid"] = "com.example.other"
            case "iss": claims["iss"] = "someone-else"
            case "kid": kid = "OTHERKEY"
            default: claims["exp"] = now + 3700
            }
            let rejected = try await send(try handmadeToken(claims: claims, kid: kid))
            #expect(rejected == 401)
            let garbage = try await send("not.a.token")
            #expect(garbage == 401)
        }
    }

    @Test("Transaction history over 3 pages, in purchase order")
    func historyPaging() async throws {
        try await withSimulator { simulator, transport in
            let answer = try #require(
                try await client(simulator, transport).transactionHistory(transactionID: "3001").value)
            #expect(answer.pages == 3)
            #expect(answer.hasMore == false)
            #expect(answer.signedTransactions.count == 5)
            let ids = answer.signedTransactions.compactMap { jwsPayload($0)?["transactionId"] as? String }
            #expect(ids == ["3000", "3001", "3002", "3003", "3004"])
            #expect(answer.bundleID == SimFixture.bundleID)
            #expect(answer.appAppleID == 1_234_567_890)
            #expect(answer.environment == .production)
            #expect(answer.attempts == 3)
            #expect(simulator.requestLog.count(path: "/production/inApps/v2/history/3001") == 3)
            let queries = simulator.requestLog.requests.map(\.query)
            #expect(queries[0] == nil)
            #expect(queries[1]?.hasPrefix("revision=") == true)
            // Asking again from the last revision returns nothing new.
            let again = try #require(
                try await client(simulator, transport).transactionHistory(
                    transactionID: "3001", revision: answer.revision
                ).value)
            #expect(again.signedTransactions.isEmpty)
            #expect(again.pages == 1)
        }
    }

    @Test("A 503 on a history page is retried and paging completes")
    func historyPageRetried() async throws {
        let faults = FaultPlan([.first(1, at: "/production/inApps/v2/history", .httpStatus(503, errorCode: nil))])
        try await withSimulator(faults: faults) { simulator, transport in
            let answer = try #require(
                try await client(simulator, transport).transactionHistory(transactionID: "3000").value)
            #expect(answer.pages == 3)
            #expect(answer.attempts == 4)
        }
    }

    @Test("Look Up Order ID: a known order and an unknown one")
    func orderLookup() async throws {
        try await withSimulator { simulator, transport in
            let client = try client(simulator, transport)
            let known = try #require(await client.lookUpOrder(orderID: "MK1000").value)
            #expect(known.status == 0)
            #expect(known.signedTransactions.count == 1)
            #expect(known.signedTransactions.first.flatMap { jwsPayload($0)?["transactionId"] as? String } == "1000")
            let unknown = try #require(await client.lookUpOrder(orderID: "NOSUCHORDER").value)
            #expect(unknown.status == 1)
            #expect(unknown.isValid == false)
            #expect(unknown.signedTransactions.isEmpty)
            #expect(simulator.requestLog.count(prefix: "/production/inApps/v1/lookup/") == 2)
        }
    }

    @Test("Refund lookup returns the refunded renewal with its revocation")
    func refundLookup() async throws {
        try await withSimulator { simulator, transport in
            let answer = try #require(try await client(simulator, transport).refundHistory(transactionID: "3004").value)
            #expect(answer.signedTransactions.count == 1)
            let payload = try #require(answer.signedTransactions.first.flatMap(jwsPayload))
            #expect(payload["transactionId"] as? String == "3002")
            #expect(payload["revocationType"] as? String == "REFUND_FULL")
            #expect((payload["revocationPercentage"] as? Int) == 100_000)
            #expect((payload["revocationReason"] as? Int) == 1)
            #expect(payload["revocationDate"] != nil)
            #expect(simulator.requestLog.count(path: "/production/inApps/v2/refund/lookup/3004") == 1)
        }
    }

    @Test(
        "Server API faults: 429 with Retry-After, 500 with 5000001, malformed JSON, reset are retried",
        arguments: [
            Fault.tooManyRequests(retryAfter: .unixMilliseconds(delayMilliseconds: 50)),
            .httpStatus(500, errorCode: 5_000_001),
            .httpStatus(500, errorCode: 5_000_000), .malformedJSON, .connectionReset,
        ])
    func serverAPIFaults(fault: Fault) async throws {
        let faults = FaultPlan([.first(1, at: "/production/inApps/v1/transactions", fault)])
        try await withSimulator(faults: faults) { simulator, transport in
            let answer = try #require(
                try await client(simulator, transport).transactionInfo(transactionID: "1000").value)
            #expect(answer.attempts == 2)
            #expect(simulator.requestLog.count(path: "/production/inApps/v1/transactions/1000") == 2)
        }
    }

    @Test("A hanging Server API stays unreachable after the budget")
    func serverAPIHang() async throws {
        let faults = FaultPlan([.always(at: "/production", .hang)])
        try await withSimulator(faults: faults) { simulator, transport in
            let client = try AppStoreServerAPIClient(
                key: SimFixture.apiKey(), endpoints: simulator.endpoints(requestTimeout: .milliseconds(200)),
                transport: transport, retryPolicy: SimFixture.fastPolicy(maxAttempts: 2), rateLimiter: .unlimited())
            let result = await client.transactionInfo(transactionID: "1000")
            guard case .unreachable(_, let attempts) = result else {
                Issue.record("expected unreachable, got \(result)")
                return
            }
            #expect(attempts == 2)
            #expect(simulator.requestLog.count(path: "/sandbox/inApps/v1/transactions/1000") == 0)
        }
    }
}
