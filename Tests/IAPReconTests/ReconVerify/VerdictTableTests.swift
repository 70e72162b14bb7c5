import Crypto
import AppStoreTestSigning
import Foundation
import IAPReconTestSupport
import Logging
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// Receipt format × Apple's answer → the pending row's verdict (CONTRACT §3), through the same entry
/// point as `iap-recon verify`, with Apple played by the canned transport.
///
/// Status codes as Apple documents them for verifyReceipt ("status", App Store Receipts,
/// developer.apple.com/documentation/appstorereceipts/status): 0 valid; 21007 a sandbox receipt
/// sent to production; 21002/21003/21010 the receipt is invalid; 21005 and 21100–21199 retryable;
/// 21004 a shared-secret problem (ours, not the customer's). Get Transaction Info answers 404 with
/// 4040010 "TransactionIdNotFoundError" when Apple has no such transaction.
@Suite struct VerdictTableTests {
    let dir = TemporaryDirectory("verdicts")
    let logger = Logger.quiet
    static let asOf: Int64 = 1_795_176_000_000
    static let transactionID = "33993399"  // the one in Apple's legacyTransaction receipt
    static let bundle = "com.example.app"

    /// How a receipt of the row reached the store.
    enum Format: String, CustomTestStringConvertible, Sendable {
        case transactionReceipt = "transaction-receipt"
        case signedTransaction = "signed-transaction"
        case foreignSignedTransaction = "signed-transaction for another app"
        case untrustedSignedTransaction = "signed-transaction from an untrusted chain"
        case none = "no receipt (Get Transaction Info)"
        var testDescription: String { rawValue }
    }

    /// What Apple answers: production first, then sandbox.
    enum Answer: String, CustomTestStringConvertible, Sendable {
        case valid = "status 0"
        case sandboxRedirect = "21007, then 0 at sandbox"
        case invalid21003 = "21003"
        case invalid21010 = "21010"
        case retryable21005 = "21005 every time"
        case sharedSecret21004 = "21004"
        case serverError = "HTTP 503 every time"
        case notFound = "404 4040010 in both environments"
        case none = "not asked"
        var testDescription: String { rawValue }
    }

    static let table: [(Format, Answer, VerificationStatus)] = [
        (.transactionReceipt, .valid, .verified),
        (.transactionReceipt, .sandboxRedirect, .verified),
        (.transactionReceipt, .invalid21003, .invalid),
        (.transactionReceipt, .invalid21010, .invalid),
        (.transactionReceipt, .retryable21005, .pending),
        (.transactionReceipt, .sharedSecret21004, .pending),
        (.transactionReceipt, .serverError, .pending),
        (.signedTransaction, .none, .verified),
        (.foreignSignedTransaction, .none, .invalid),
        (.untrustedSignedTransaction, .none, .invalid),
        (.none, .valid, .verified),
        (.none, .notFound, .invalid),
        (.none, .serverError, .pending),
    ]

    @Test(arguments: table)
    func verdict(format: Format, answer: Answer, expected: VerificationStatus) async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let stranger = try TestAuthorities.unwrap(TestAuthorities.stranger)
        let receiptID = format == .none ? "" : "rc1"
        let ledger = try dir.write(
            "t.csv",
            CommandLineHeader.transactions + "\n"
                + "r1,u1,coins,\(Self.transactionID),,2026-11-19T00:00:00Z,1,Production,0.99,USD,USA,pending,,,"
                + receiptID + "\n")
        var request = ImportRequest(transactions: [ledger])
        if format != .none {
            let data: String
            switch format {
            case .transactionReceipt: data = try ReceiptFixtures.mock("legacyTransaction")
            case .signedTransaction:
                data = try JWSSigner.sign(payload: Self.payload(), authority: authority)
            case .foreignSignedTransaction:
                data = try JWSSigner.sign(
                    payload: TestAuthorities.transaction(id: Self.transactionID, bundle: "com.other.app"),
                    authority: authority)
            case .untrustedSignedTransaction, .none:
                data = try JWSSigner.sign(payload: Self.payload(), authority: stranger)
            }
            let kind = format == .transactionReceipt ? "transaction-receipt" : "signed-transaction"
            let line = #"{"receipt_id":"rc1","user_id":"u1","format":"\#(kind)","data":"\#(data)"}"#
            request.receipts = [try dir.write("r.jsonl", line + "\n")]
        }

        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        config.bundleIDs = [Self.bundle]
        config.trustedRoots = [try dir.write("root.pem", authority.rootPEM)]
        config.verifyReceiptURL = "http://127.0.0.1:9/production/verifyReceipt"
        config.sandboxVerifyReceiptURL = "http://127.0.0.1:9/sandbox/verifyReceipt"
        config.serverAPIURL = "http://127.0.0.1:9/production"
        config.sandboxServerAPIURL = "http://127.0.0.1:9/sandbox"
        config.retryAttempts = 3
        config.sharedSecret = "s3cr3t"
        config.apiKeyFile = try dir.write("AuthKey.p8", P256.Signing.PrivateKey().pemRepresentation)
        config.apiKeyID = "ABCDEFGHIJ"
        config.issuerID = "57246542-96fe-1a63-e053-0824d011072a"

        let signedInfo = try JWSSigner.sign(payload: Self.payload(), authority: authority)
        let transport = CannedTransport { request, _ in
            Self.respond(answer, to: request.url.path, signedTransactionInfo: signedInfo)
        }
        let clock = ManualClock(millis: Self.asOf)
        let recon = try ReconDependencies(config: config, clock: clock, logger: logger, transport: transport)
        _ = try await recon.importFiles(request)
        let outcome = try await recon.verify()

        #expect(outcome.status == .done)
        let rows = try recon.store.lookup.ledgerRows(transactionIDs: [Self.transactionID])
        // With Server API credentials, verify also sweeps Apple's notification history, production
        // then sandbox (answered here with empty pages); the verdict is about the other requests.
        let history = transport.requests.filter { $0.url.path.hasSuffix(Self.historyPath) }
        #expect(history.map { $0.url.path.hasPrefix("/sandbox") } == [false, true])
        let requests = transport.requests.filter { !$0.url.path.hasSuffix(Self.historyPath) }
        #expect(rows.map(\.verificationStatus) == [expected], "\(requests.map(\.url.path))")
        #expect(requests.isEmpty == (answer == .none))
        if format == .none, let token = requests.first?.header("Authorization")?.split(separator: " ").last {
            // The Server API token is issued on the root's clock, like every other "now".
            let claims = try #require(decodeJWTSegment(token.split(separator: ".")[1]))
            #expect(claims["iat"] as? Int == Int(Self.asOf / 1000))
        }
        if answer == .serverError || answer == .retryable21005 {
            // Every retry waited on the one clock, and gave up after the configured attempts.
            #expect(clock.sleeps.count == 2)
        }
    }

    /// Apple's signed transaction for the row.
    static func payload() -> JWSTransactionDecodedPayload {
        TestAuthorities.transaction(id: transactionID)
    }

    static let historyPath = "/inApps/v1/notifications/history"

    static func respond(_ answer: Answer, to path: String, signedTransactionInfo: String)
        -> Result<AppleHTTPResponse, TransportError>
    {
        if path.hasSuffix(historyPath) {
            return .success(AppleHTTPResponse(status: 200, json: #"{"notificationHistory": [], "hasMore": false}"#))
        }
        let sandbox = path.hasPrefix("/sandbox")
        func verifyReceipt(_ status: Int) -> Result<AppleHTTPResponse, TransportError> {
            let receipt =
                #"{"bid": "\#(bundle)", "transaction_id": "\#(transactionID)", "product_id": "coins", "#
                + #""quantity": "1", "purchase_date_ms": "1795046400000"}"#
            let environment = sandbox ? "Sandbox" : "Production"
            let body =
                status == 0
                ? #"{"status": 0, "environment": "\#(environment)", "receipt": \#(receipt)}"#
                : #"{"status": \#(status)}"#
            return .success(AppleHTTPResponse(status: 200, json: body))
        }
        switch answer {
        case .serverError: return .success(AppleHTTPResponse(status: 503, json: "{}"))
        case .notFound:
            return .success(
                AppleHTTPResponse(
                    status: 404, json: #"{"errorCode": 4040010, "errorMessage": "Transaction id not found."}"#))
        case .valid where path.contains("/inApps/"):
            let body = #"{"signedTransactionInfo": "\#(signedTransactionInfo)"}"#
            return .success(AppleHTTPResponse(status: 200, json: body))
        case .valid, .none: return verifyReceipt(0)
        case .sandboxRedirect: return verifyReceipt(sandbox ? 0 : 21_007)
        case .invalid21003: return verifyReceipt(21_003)
        case .invalid21010: return verifyReceipt(21_010)
        case .retryable21005: return verifyReceipt(21_005)
        case .sharedSecret21004: return verifyReceipt(21_004)
        }
    }
}

/// The ledger's header (CONTRACT §1.1).
enum CommandLineHeader {
    static let transactions =
        "record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,environment,price,"
        + "currency,storefront,verification_status,delivered_at,finished_at,receipt_id"
}
