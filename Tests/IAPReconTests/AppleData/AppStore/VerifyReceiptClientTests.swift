import Foundation
import IAPRecon
import Testing

@Suite("verifyReceipt client (canned transport)")
struct VerifyReceiptClientTests {
    static let secret = "s3cr3t-shared-0123456789abcdef"
    static let receiptData = "MIIT0gYJKoZIhvcNAQcCoIITwzCCE78CAQExCzAJBgUrDgMCGgUAMIIDcwYJKoZIhvcNAQcBoIIDZASCA2Ax"

    static let validBody = """
        {"status": 0, "environment": "Production",
         "receipt": {"receipt_type": "Production", "bundle_id": "com.example.app", "application_version": "7",
           "original_application_version": "1.0", "receipt_creation_date_ms": "1700000000000",
           "in_app": [
             {"quantity": "2", "product_id": "coins.100", "transaction_id": "1000000001",
              "original_transaction_id": "1000000001", "purchase_date_ms": "1699990000000",
              "original_purchase_date_ms": "1699990000000", "in_app_ownership_type": "PURCHASED"},
             {"quantity": "1", "product_id": "pro.monthly", "transaction_id": "1000000002",
              "original_transaction_id": "1000000000", "purchase_date_ms": "1699000000000",
              "original_purchase_date_ms": "1698000000000", "expires_date_ms": "1701592000000",
              "web_order_line_item_id": "230000000000001"}
           ]},
         "latest_receipt_info": [
           {"quantity": "1", "product_id": "pro.monthly", "transaction_id": "1000000003",
            "original_transaction_id": "1000000000", "purchase_date_ms": "1701592000000",
            "expires_date_ms": "1704270400000", "web_order_line_item_id": "230000000000002",
            "cancellation_date_ms": "1702000000000", "cancellation_reason": "1"}
         ]}
        """

    func client(
        _ transport: CannedTransport, secret: String? = VerifyReceiptClientTests.secret,
        policy: RetryPolicy = .testing()
    ) throws -> VerifyReceiptClient {
        try VerifyReceiptClient(
            endpoints: .loopback, sharedSecret: secret.map(SharedSecret.init), transport: transport,
            retryPolicy: policy, rateLimiter: .unlimited())
    }

    @Test("Sends POST JSON with receipt-data, password and exclude-old-transactions to production first")
    func requestShape() async throws {
        let transport = CannedTransport(sequence: [.success(AppleHTTPResponse(status: 200, json: Self.validBody))])
        let outcome = try await client(transport).verify(receiptData: Self.receiptData, excludeOldTransactions: true)
        #expect(outcome.answer?.verdict == .valid)
        let request = try #require(transport.requests.first)
        #expect(transport.requests.count == 1)
        #expect(request.method == .post)
        #expect(request.url == AppStoreEndpoints.loopback.verifyReceiptProduction)
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.endpoint == .verifyReceipt)
        let body = try #require(request.body)
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(json["receipt-data"] as? String == Self.receiptData)
        #expect(json["password"] as? String == Self.secret)
        #expect(json["exclude-old-transactions"] as? Bool == true)
    }

    @Test("Without a shared secret no password is sent")
    func noPassword() async throws {
        let transport = CannedTransport(sequence: [.success(AppleHTTPResponse(status: 200, json: Self.validBody))])
        _ = try await client(transport, secret: nil).verify(receiptData: Self.receiptData)
        let body = try #require(transport.requests.first?.body)
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(json["password"] == nil)
        #expect(json["exclude-old-transactions"] as? Bool == false)
    }

    @Test("Maps every in_app and latest_receipt_info entry to evidence")
    func mapsEntries() async throws {
        let transport = CannedTransport(sequence: [.success(AppleHTTPResponse(status: 200, json: Self.validBody))])
        let answer = try #require(try await client(transport).verify(receiptData: Self.receiptData).answer)
        #expect(answer.status == 0)
        #expect(answer.answeredBy == .production)
        #expect(answer.environment == .production)
        #expect(answer.bundleID == "com.example.app")
        #expect(answer.receiptType == "Production")
        #expect(answer.receiptCreationDate == 1_700_000_000_000)
        #expect(answer.applicationVersion == "7")
        #expect(answer.statuses == [0])
        #expect(answer.attempts == 1)
        #expect(answer.inApp.map(\.transactionID) == ["1000000001", "1000000002"])
        #expect(answer.latestReceiptInfo.map(\.transactionID) == ["1000000003"])
        #expect(answer.allEntries.count == 3)
        let coins = answer.inApp[0]
        #expect(coins.quantity == 2)
        #expect(coins.productID == "coins.100")
        #expect(coins.purchaseDate == 1_699_990_000_000)
        #expect(coins.inAppOwnershipType == "PURCHASED")
        let sub = answer.inApp[1]
        #expect(sub.originalTransactionID == "1000000000")
        #expect(sub.originalPurchaseDate == 1_698_000_000_000)
        #expect(sub.expiresDate == 1_701_592_000_000)
        #expect(sub.webOrderLineItemID == "230000000000001")
        let refunded = answer.latestReceiptInfo[0]
        #expect(refunded.cancellationDate == 1_702_000_000_000)
        #expect(refunded.cancellationReason == "1")
    }

    @Test("An iOS 6 answer (receipt is the transaction, bid) becomes one entry")
    func iOS6Answer() async throws {
        let body = """
            {"status": 0, "receipt": {"bid": "com.example.legacy", "bvrs": "1.0", "product_id": "gems",
              "quantity": "3", "transaction_id": "33993399", "original_transaction_id": "33993399",
              "purchase_date_ms": "1350000000000", "original_purchase_date_ms": "1350000000000"}}
            """
        let transport = CannedTransport(sequence: [.success(AppleHTTPResponse(status: 200, json: body))])
        let answer = try #require(try await client(transport).verify(receiptData: Self.receiptData).answer)
        #expect(answer.bundleID == "com.example.legacy")
        #expect(answer.environment == nil)
        #expect(answer.receiptEnvironment == .production)
        #expect(answer.inApp.count == 1)
        #expect(answer.inApp.first?.transactionID == "33993399")
        #expect(answer.inApp.first?.quantity == 3)
        #expect(answer.inApp.first?.bundleID == "com.example.legacy")
    }

    @Test("21007 at production is retried at sandbox")
    func sandboxRedirect() async throws {
        let transport = CannedTransport { request, _ in
            request.environment == .production
                ? .success(AppleHTTPResponse(status: 200, json: #"{"status": 21007}"#))
                : .success(
                    AppleHTTPResponse(
                        status: 200,
                        json: #"{"status": 0, "environment": "Sandbox", "receipt": {"bundle_id": "b", "in_app": []}}"#))
        }
        let answer = try #require(try await client(transport).verify(receiptData: Self.receiptData).answer)
        #expect(
            transport.requests.map(\.url) == [
                AppStoreEndpoints.loopback.verifyReceiptProduction, AppStoreEndpoints.loopback.verifyReceiptSandbox,
            ])
        #expect(answer.answeredBy == .sandbox)
        #expect(answer.environment == .sandbox)
        #expect(answer.statuses == [21_007, 0])
        #expect(answer.attempts == 2)
        #expect(answer.verdict == .valid)
    }

    @Test("21008 at sandbox is retried at production")
    func productionRedirect() async throws {
        let transport = CannedTransport { request, _ in
            request.environment == .sandbox
                ? .success(AppleHTTPResponse(status: 200, json: #"{"status": 21008}"#))
                : .success(AppleHTTPResponse(status: 200, json: Self.validBody))
        }
        let answer = try #require(
            try await client(transport).verify(receiptData: Self.receiptData, startAt: .sandbox).answer)
        #expect(transport.requests.map(\.environment) == [.sandbox, .production])
        #expect(answer.answeredBy == .production)
        #expect(answer.statuses == [21_008, 0])
    }

    @Test("Contradicting environments stop after one redirect")
    func noPingPong() async throws {
        let transport = CannedTransport { request, _ in
            .success(
                AppleHTTPResponse(
                    status: 200,
                    json: request.environment == .production ? #"{"status": 21007}"# : #"{"status": 21008}"#))
        }
        let answer = try #require(try await client(transport).verify(receiptData: Self.receiptData).answer)
        #expect(transport.requests.count == 2)
        #expect(answer.verdict == .wrongEnvironment)
        #expect(answer.statuses == [21_007, 21_008])
    }

    @Test("Invalid receipts are final without a retry", arguments: [21_002, 21_003, 21_010])
    func invalidIsFinal(status: Int) async throws {
        let transport = CannedTransport(sequence: [
            .success(AppleHTTPResponse(status: 200, json: #"{"status": \#(status)}"#))
        ])
        let answer = try #require(try await client(transport).verify(receiptData: Self.receiptData).answer)
        #expect(answer.verdict == .invalid)
        #expect(answer.status == status)
        #expect(transport.requests.count == 1)
    }

    @Test("21004 is a configuration problem, not an invalid receipt")
    func sharedSecretMismatch() async throws {
        let transport = CannedTransport(sequence: [
            .success(AppleHTTPResponse(status: 200, json: #"{"status": 21004}"#))
        ])
        let answer = try #require(try await client(transport).verify(receiptData: Self.receiptData).answer)
        #expect(answer.verdict == .configurationProblem)
        #expect(transport.requests.count == 1)
    }

    @Test(
        "Transient statuses are retried until a final one",
        arguments: [
            #"{"status": 21005}"#, #"{"status": 21100, "is-retryable": true}"#, #"{"status": 21199}"#,
            #"{"status": 21150, "is-retryable": 1}"#,
        ])
    func transientStatus(body: String) async throws {
        let clock = RecordingClock()
        let transport = CannedTransport(sequence: [
            .success(AppleHTTPResponse(status: 200, json: body)),
            .success(AppleHTTPResponse(status: 200, json: Self.validBody)),
        ])
        let answer = try #require(
            try await client(transport, policy: .testing(clock: clock)).verify(receiptData: Self.receiptData).answer)
        #expect(answer.verdict == .valid)
        #expect(answer.attempts == 2)
        #expect(answer.statuses.count == 2)
        #expect(clock.sleeps.count == 1)
    }

    @Test("21100-range marked not retryable is final and unresolved (never invalid)")
    func notRetryable() async throws {
        let transport = CannedTransport(sequence: [
            .success(AppleHTTPResponse(status: 200, json: #"{"status": 21101, "is-retryable": false}"#))
        ])
        let answer = try #require(try await client(transport).verify(receiptData: Self.receiptData).answer)
        #expect(answer.verdict == .unresolved)
        #expect(answer.isRetryable == false)
        #expect(transport.requests.count == 1)
    }

    @Test(
        "HTTP 5xx, 429, malformed JSON and transport failures are retried",
        arguments: [
            Result<AppleHTTPResponse, TransportError>.success(AppleHTTPResponse(status: 500)),
            .success(AppleHTTPResponse(status: 503)),
            .success(AppleHTTPResponse(status: 429)),
            .success(AppleHTTPResponse(status: 200, json: #"{"status": 0, "receipt": {"#)),
            .success(AppleHTTPResponse(status: 200, json: #"["not an object"]"#)),
            .failure(.timedOut), .failure(.connectionReset), .failure(.connectionRefused),
        ])
    func transientFailure(first: Result<AppleHTTPResponse, TransportError>) async throws {
        let transport = CannedTransport(sequence: [
            first, .success(AppleHTTPResponse(status: 200, json: Self.validBody)),
        ])
        let outcome = try await client(transport).verify(receiptData: Self.receiptData)
        #expect(outcome.answer?.verdict == .valid)
        #expect(outcome.attempts == 2)
    }

    @Test("Other HTTP 4xx are not retried and not a verdict")
    func httpFailure() async throws {
        let transport = CannedTransport(sequence: [.success(AppleHTTPResponse(status: 404))])
        let outcome = try await client(transport).verify(receiptData: Self.receiptData)
        guard case .httpFailure(let status, let endpoint, _, let attempts) = outcome else {
            Issue.record("expected an HTTP failure, got \(outcome)")
            return
        }
        #expect(status == 404)
        #expect(endpoint == AppStoreEndpoints.loopback.verifyReceiptProduction)
        #expect(attempts == 1)
    }

    @Test("Out of budget stays unreachable, never invalid")
    func unreachable() async throws {
        let transport = CannedTransport(sequence: [
            .success(AppleHTTPResponse(status: 200, json: #"{"status": 21005}"#))
        ])
        let outcome = try await client(transport, policy: .testing(maxAttempts: 3)).verify(
            receiptData: Self.receiptData)
        guard case .unreachable(let reason, let statuses, let attempts) = outcome else {
            Issue.record("expected unreachable, got \(outcome)")
            return
        }
        #expect(attempts == 3)
        #expect(statuses == [21_005, 21_005, 21_005])
        #expect(reason.contains("21005"))
    }

    @Test("Retry-After on 503 is honoured")
    func retryAfterOn503() async throws {
        let clock = RecordingClock()
        let transport = CannedTransport(sequence: [
            .success(AppleHTTPResponse(status: 503, headers: ["Retry-After": "4"])),
            .success(AppleHTTPResponse(status: 200, json: Self.validBody)),
        ])
        _ = try await client(transport, policy: .testing(clock: clock)).verify(receiptData: Self.receiptData)
        #expect(clock.sleeps == [.seconds(4)])
    }

    @Test("The shared secret and receipt data appear in no description, outcome or error")
    func secretsNeverShown() async throws {
        let transport = CannedTransport(sequence: [.failure(.connectionFailed("boom"))])
        let client = try client(transport, policy: .testing(maxAttempts: 2))
        let outcome = await client.verify(receiptData: Self.receiptData)
        let secret = SharedSecret(Self.secret)
        var dumped = ""
        dump(secret, to: &dumped)
        var dumpedClient = ""
        dump(client, to: &dumpedClient)
        let request = try #require(transport.requests.first)
        var dumpedRequest = ""
        dump(request, to: &dumpedRequest)
        let texts = [
            "\(secret)", String(reflecting: secret), dumped, "\(outcome)", String(reflecting: outcome),
            "\(request)", String(reflecting: request), dumpedRequest, "\(client)", dumpedClient,
            AppStoreConfigError.invalidPrivateKey(source: "env").description,
        ]
        for text in texts {
            #expect(!text.contains(Self.secret))
            #expect(!text.contains(Self.receiptData))
        }
    }

    @Test("Bad endpoints throw a configuration error naming the setting")
    func badEndpoints() {
        #expect(throws: AppStoreConfigError.invalidURL(setting: "verify-receipt-url", value: "ftp://x")) {
            _ = try AppStoreEndpoints.parse(verifyReceiptProduction: "ftp://x")
        }
        var endpoints = AppStoreEndpoints.loopback
        endpoints.concurrency = 0
        #expect(throws: AppStoreConfigError.self) {
            _ = try VerifyReceiptClient(endpoints: endpoints, transport: CannedTransport(sequence: []))
        }
    }

    @Test("Apple's real endpoints are the defaults")
    func defaults() {
        let apple = AppStoreEndpoints.apple
        #expect(apple.verifyReceiptProduction.absoluteString == "https://buy.itunes.apple.com/verifyReceipt")
        #expect(apple.verifyReceiptSandbox.absoluteString == "https://sandbox.itunes.apple.com/verifyReceipt")
        #expect(apple.serverAPIProduction.absoluteString == "https://api.storekit.itunes.apple.com")
        #expect(apple.serverAPISandbox.absoluteString == "https://api.storekit-sandbox.itunes.apple.com")
    }
}
