import Crypto
import Foundation
import IAPRecon
import Testing

@Suite("App Store Server API client (canned transport)")
struct AppStoreServerAPIClientTests {
    static let privateKey = P256.Signing.PrivateKey()
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func key() throws -> AppStoreAPIKey {
        try AppStoreAPIKey(
            keyID: "ABCDEFGHIJ", issuerID: issuer, bundleID: "com.example.app",
            privateKeyPEM: privateKey.pemRepresentation)
    }

    func client(
        _ transport: CannedTransport, policy: RetryPolicy = .testing(clock: RecordingClock(fixedNow: Self.now)),
        lifetime: Duration = .seconds(1200)
    ) throws -> AppStoreServerAPIClient {
        try AppStoreServerAPIClient(
            key: Self.key(), endpoints: .loopback, transport: transport, retryPolicy: policy,
            rateLimiter: .unlimited(), tokenLifetime: lifetime)
    }

    static func ok(_ json: String) -> Result<AppleHTTPResponse, TransportError> {
        .success(AppleHTTPResponse(status: 200, json: json))
    }

    static func error(_ status: Int, _ json: String, headers: [String: String] = [:]) -> Result<
        AppleHTTPResponse, TransportError
    > {
        .success(AppleHTTPResponse(status: status, json: json, headers: headers))
    }

    @Test("Get Transaction Info: GET path, bearer JWT with Apple's header and claims, ES256 signature")
    func requestAndToken() async throws {
        let transport = CannedTransport(sequence: [Self.ok(#"{"signedTransactionInfo": "a.b.c"}"#)])
        let result = try await client(transport).transactionInfo(transactionID: "2000000123")
        #expect(
            result.value == TransactionInfoAnswer(signedTransactionInfo: "a.b.c", environment: .production, attempts: 1)
        )
        let request = try #require(transport.requests.first)
        #expect(request.method == .get)
        #expect(request.url.absoluteString == "http://127.0.0.1:9/production/inApps/v1/transactions/2000000123")
        #expect(request.body == nil)
        #expect(request.endpoint == .transactionInfo)
        let authorization = try #require(request.header("Authorization"))
        #expect(authorization.hasPrefix("Bearer "))
        let token = authorization.dropFirst("Bearer ".count)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        let header = try #require(decodeJWTSegment(parts[0]))
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == "ABCDEFGHIJ")
        #expect(header["typ"] as? String == "JWT")
        let claims = try #require(decodeJWTSegment(parts[1]))
        #expect(claims["iss"] as? String == Self.issuer)
        #expect(claims["aud"] as? String == "appstoreconnect-v1")
        #expect(claims["bid"] as? String == "com.example.app")
        let iat = try #require(claims["iat"] as? Int)
        let exp = try #require(claims["exp"] as? Int)
        #expect(iat == 1_700_000_000)
        #expect(exp - iat == 1200)
        var signature = String(parts[2]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(
            of: "_", with: "/")
        while signature.count % 4 != 0 { signature += "=" }
        let raw = try #require(Data(base64Encoded: signature))
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: raw)
        #expect(Self.privateKey.publicKey.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8)))
    }

    @Test("Token lifetime above 60 minutes is a configuration error")
    func lifetimeLimit() throws {
        #expect(throws: AppStoreConfigError.self) {
            _ = try client(CannedTransport(sequence: []), lifetime: .seconds(3601))
        }
    }

    @Test("A key that is not P-256 PKCS#8 is rejected without echoing it")
    func badKey() {
        let pem = "-----BEGIN PRIVATE KEY-----\nTm90QUtleQ==\n-----END PRIVATE KEY-----"
        do {
            _ = try AppStoreAPIKey(
                keyID: "K", issuerID: "I", bundleID: "B", privateKeyPEM: pem, source: "IAP_RECON_API_KEY_FILE")
            Issue.record("expected an error")
        } catch {
            #expect(error == .invalidPrivateKey(source: "IAP_RECON_API_KEY_FILE"))
            #expect(!error.description.contains("Tm90QUtleQ"))
        }
    }

    @Test("Credentials never print the key or the issuer")
    func redacted() throws {
        let key = try Self.key()
        var dumped = ""
        dump(key, to: &dumped)
        let pemBody = Self.privateKey.pemRepresentation
            .split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        for text in ["\(key)", String(reflecting: key), dumped] {
            #expect(!text.contains(Self.issuer))
            #expect(!text.contains(String(pemBody.prefix(24))))
            #expect(text.contains("ABCDEFGHIJ"))
        }
    }

    @Test("A client that has made requests does not show its bearer token or key")
    func clientRedacted() async throws {
        let transport = CannedTransport(sequence: [Self.ok(#"{"signedTransactionInfo": "a.b.c"}"#)])
        let client = try client(transport)
        _ = await client.transactionInfo(transactionID: "1")
        let token = try #require(transport.requests.first?.header("authorization")?.dropFirst("Bearer ".count))
        var dumped = ""
        dump(client, to: &dumped)
        let texts = [dumped, "\(client)", String(reflecting: client), "\(transport.requests)"]
        for text in texts {
            #expect(!text.contains(token))
            #expect(!text.contains(Self.issuer))
        }
    }

    @Test("Falls back to sandbox on 4040010 (Apple's transactionIdNotFoundError.json)")
    func fallbackNotFound() async throws {
        let notFound = try AppStoreFixtures.text("transactionIdNotFoundError")
        let transport = CannedTransport { request, _ in
            request.environment == .production
                ? Self.error(404, notFound) : Self.ok(#"{"signedTransactionInfo": "s.s.s"}"#)
        }
        let answer = try #require(try await client(transport).transactionInfo(transactionID: "42").value)
        #expect(answer.environment == .sandbox)
        #expect(answer.attempts == 2)
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                "http://127.0.0.1:9/production/inApps/v1/transactions/42",
                "http://127.0.0.1:9/sandbox/inApps/v1/transactions/42",
            ])
    }

    @Test(
        "Falls back on 4040005 and on a bare 401",
        arguments: [
            (404, #"{"errorCode": 4040005, "errorMessage": "Original transaction id not found."}"#), (401, ""),
        ])
    func fallbackOther(status: Int, body: String) async throws {
        let transport = CannedTransport { request, _ in
            request.environment == .production
                ? .success(AppleHTTPResponse(status: status, body: Data(body.utf8)))
                : Self.ok(#"{"signedTransactionInfo": "s.s.s"}"#)
        }
        let answer = try #require(try await client(transport).transactionInfo(transactionID: "42").value)
        #expect(answer.environment == .sandbox)
    }

    @Test("A 401 in both environments is surfaced as a failure")
    func unauthorized() async throws {
        let transport = CannedTransport(sequence: [.success(AppleHTTPResponse(status: 401))])
        let result = try await client(transport).transactionInfo(transactionID: "42")
        let failure = try #require(result.failure)
        #expect(failure.httpStatus == 401)
        #expect(failure.apiError == nil)
        #expect(failure.environment == .sandbox)
        #expect(failure.attempts == 2)
    }

    @Test("An explicit environment does not fall back")
    func explicitEnvironment() async throws {
        let notFound = try AppStoreFixtures.text("transactionIdNotFoundError")
        let transport = CannedTransport(sequence: [Self.error(404, notFound)])
        let result = try await client(transport).transactionInfo(transactionID: "42", environment: .production)
        #expect(result.failure?.apiError == .transactionIDNotFound)
        #expect(transport.requests.count == 1)
    }

    @Test("Unknown error codes are kept raw and not retried (apiUnknownError.json)")
    func unknownCode() async throws {
        let transport = CannedTransport(sequence: [Self.error(400, try AppStoreFixtures.text("apiUnknownError"))])
        let failure = try #require(try await client(transport).transactionInfo(transactionID: "42").failure)
        #expect(failure.apiError?.rawValue == 9_990_000)
        #expect(failure.apiError?.name == nil)
        #expect(failure.apiError?.isRetryable == false)
        #expect(failure.message == "Testing error.")
        #expect(failure.httpStatus == 400)
        #expect(transport.requests.count == 1)
    }

    @Test("429 with Retry-After in UNIX ms is waited out, then retried (apiTooManyRequestsException.json)")
    func rateLimited() async throws {
        let clock = RecordingClock(fixedNow: Self.now)
        let retryAt = String(Int64(Self.now.timeIntervalSince1970 * 1000) + 2_500)
        let transport = CannedTransport(sequence: [
            Self.error(
                429, try AppStoreFixtures.text("apiTooManyRequestsException"), headers: ["Retry-After": retryAt]),
            Self.ok(#"{"signedTransactionInfo": "a.b.c"}"#),
        ])
        let result = try await client(transport, policy: .testing(clock: clock)).transactionInfo(transactionID: "1")
        #expect(result.value?.attempts == 2)
        #expect(clock.sleeps == [.milliseconds(2_500)])
    }

    @Test("5000000/5000001 and HTTP 5xx are retried (apiException.json)")
    func internalErrors() async throws {
        let transport = CannedTransport(sequence: [
            Self.error(500, try AppStoreFixtures.text("apiException")),
            Self.error(500, #"{"errorCode": 5000001, "errorMessage": "retry"}"#),
            .success(AppleHTTPResponse(status: 503)),
            Self.ok(#"{"signedTransactionInfo": "a.b.c"}"#),
        ])
        let result = try await client(transport).transactionInfo(transactionID: "1")
        #expect(result.value?.attempts == 4)
    }

    @Test("Retryable 4xx codes are retried; exhaustion is unreachable, not a failure")
    func retryableCode() async throws {
        let transport = CannedTransport(sequence: [
            Self.error(404, #"{"errorCode": 4040006, "errorMessage": "Original transaction id not found. Try again."}"#)
        ])
        let result = try await client(transport, policy: .testing(maxAttempts: 3)).transactionInfo(
            transactionID: "1", environment: .production)
        guard case .unreachable(_, let attempts) = result else {
            Issue.record("expected unreachable, got \(result)")
            return
        }
        #expect(attempts == 3)
    }

    @Test("History pages while hasMore, passing each revision (transactionHistoryResponse.json)")
    func historyPaging() async throws {
        let first = try AppStoreFixtures.text("transactionHistoryResponse")
        let transport = CannedTransport { request, index in
            switch index {
            case 0: return Self.ok(first)
            case 1:
                return Self.ok(
                    #"{"revision": "rev 2+/=", "hasMore": true, "bundleId": "com.example", "environment": "Production", "signedTransactions": ["t3"]}"#
                )
            default:
                return Self.ok(
                    #"{"revision": "rev3", "hasMore": false, "bundleId": "com.example", "appAppleId": 323232, "environment": "Production", "signedTransactions": ["t4", "t5"]}"#
                )
            }
        }
        let answer = try #require(try await client(transport).transactionHistory(transactionID: "12345").value)
        #expect(
            answer.signedTransactions == ["signed_transaction_value", "signed_transaction_value2", "t3", "t4", "t5"])
        #expect(answer.pages == 3)
        #expect(answer.hasMore == false)
        #expect(answer.revision == "rev3")
        #expect(answer.bundleID == "com.example")
        #expect(answer.appAppleID == 323232)
        #expect(answer.attempts == 3)
        let urls = transport.requests.map(\.url.absoluteString)
        #expect(
            urls == [
                "http://127.0.0.1:9/production/inApps/v2/history/12345",
                "http://127.0.0.1:9/production/inApps/v2/history/12345?revision=revision_output",
                "http://127.0.0.1:9/production/inApps/v2/history/12345?revision=rev%202%2B/%3D",
            ])
    }

    @Test("An unknown environment string in a history page is kept raw")
    func malformedEnvironment() async throws {
        let page = try AppStoreFixtures.text("transactionHistoryResponse")
            .replacingOccurrences(of: "\"hasMore\": true", with: "\"hasMore\": false")
            .replacingOccurrences(of: "LocalTesting", with: "LocalTestingxxx")
        let transport = CannedTransport(sequence: [Self.ok(page)])
        let answer = try #require(try await client(transport).transactionHistory(transactionID: "1").value)
        #expect(answer.environment == .unknown("LocalTestingxxx"))
    }

    @Test("Refund history pages by revision (getRefundHistoryResponse.json)")
    func refundPaging() async throws {
        let first = try AppStoreFixtures.text("getRefundHistoryResponse")
        let transport = CannedTransport { _, index in
            index == 0
                ? Self.ok(first) : Self.ok(#"{"signedTransactions": ["r3"], "revision": "done", "hasMore": false}"#)
        }
        let answer = try #require(try await client(transport).refundHistory(transactionID: "77").value)
        #expect(answer.signedTransactions == ["signed_transaction_one", "signed_transaction_two", "r3"])
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                "http://127.0.0.1:9/production/inApps/v2/refund/lookup/77",
                "http://127.0.0.1:9/production/inApps/v2/refund/lookup/77?revision=revision_output",
            ])
        #expect(transport.requests.allSatisfy { $0.endpoint == .refundHistory })
    }

    @Test("Look Up Order ID returns status and transactions (lookupOrderIdResponse.json)")
    func orderLookup() async throws {
        let transport = CannedTransport(sequence: [Self.ok(try AppStoreFixtures.text("lookupOrderIdResponse"))])
        let answer = try #require(try await client(transport).lookUpOrder(orderID: "MK5TTTVWJH").value)
        #expect(answer.status == 1)
        #expect(answer.isValid == false)
        #expect(answer.signedTransactions == ["signed_transaction_one", "signed_transaction_two"])
        #expect(
            transport.requests.first?.url.absoluteString == "http://127.0.0.1:9/production/inApps/v1/lookup/MK5TTTVWJH")
        #expect(transport.requests.first?.endpoint == .orderLookup)
    }

    @Test("Path segments are escaped")
    func escaping() async throws {
        let transport = CannedTransport(sequence: [Self.ok(#"{"status": 1}"#)])
        _ = try await client(transport).lookUpOrder(orderID: "a/b?c")
        #expect(
            transport.requests.first?.url.absoluteString == "http://127.0.0.1:9/production/inApps/v1/lookup/a%2Fb%3Fc")
    }

    @Test("A new token for every request, issued now")
    func tokenPerRequest() async throws {
        let clock = RecordingClock(fixedNow: Self.now)
        let signer = try AppStoreTokenSigner(key: Self.key(), lifetime: .seconds(600), clock: clock)
        let first = await signer.token()
        #expect(await signer.token() != first)
        try await clock.sleep(for: .seconds(500))
        let later = await signer.token()
        func claims(_ token: String) throws -> [String: Any] {
            let part = String(token.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+")
                .replacingOccurrences(of: "_", with: "/")
            let padded = part + String(repeating: "=", count: (4 - part.count % 4) % 4)
            let data = try #require(Data(base64Encoded: padded))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let iat0 = try #require(try claims(first)["iat"] as? Int)
        let iat1 = try #require(try claims(later)["iat"] as? Int)
        #expect(iat1 - iat0 == 500)
        #expect(try claims(later)["exp"] as? Int == iat1 + 600)
    }

    @Test("AppleAPIError keeps raw codes and knows the retryable ones")
    func apiErrorCodes() {
        #expect(AppleAPIError(4_040_010) == .transactionIDNotFound)
        #expect(AppleAPIError.transactionIDNotFound.isNotFoundInEnvironment)
        #expect(AppleAPIError.originalTransactionIDNotFound.isNotFoundInEnvironment)
        #expect(AppleAPIError.rateLimitExceeded.isRetryable)
        #expect(AppleAPIError.generalInternal.isRetryable)
        #expect(AppleAPIError.generalInternalRetryable.isRetryable)
        #expect(!AppleAPIError.invalidTransactionID.isRetryable)
        #expect(AppleAPIError(9_990_000).description == "9990000 (unknown code)")
    }
}
