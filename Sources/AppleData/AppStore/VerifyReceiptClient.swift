import Foundation
import Logging
import ReconModel

/// Verifies receipts with Apple's `verifyReceipt`: production first, 21007 → sandbox,
/// 21008 at sandbox → production, retrying transient failures under one ``RetryPolicy``.
///
/// Every call returns a ``VerifyReceiptResult``. When Apple cannot be reached within the budget
/// the outcome is ``VerifyReceiptResult/unreachable(reason:statuses:attempts:)``, never an
/// invalid verdict. The receipt data and the shared secret are never logged.
public struct VerifyReceiptClient: Sendable {
    /// Where to send requests, the per-request timeout and the concurrency.
    public let endpoints: AppStoreEndpoints
    private let sharedSecret: SharedSecret?
    private let retryPolicy: RetryPolicy
    private let executor: AppleRequestExecutor

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - endpoints: URLs, timeout, concurrency (validated here).
    ///   - sharedSecret: The app's shared secret, sent as `password`; optional.
    ///   - transport: The HTTP seam (``AsyncHTTPTransport`` in production).
    ///   - retryPolicy: Backoff, attempts, budget, clock.
    ///   - rateLimiter: Shared token buckets; `verifyReceipt` is unthrottled by default.
    ///   - logger: Where request outcomes go (debug level).
    /// - Throws: ``AppStoreConfigError`` for invalid endpoints.
    public init(
        endpoints: AppStoreEndpoints = .apple, sharedSecret: SharedSecret? = nil, transport: any HTTPTransport,
        retryPolicy: RetryPolicy = .default, rateLimiter: RateLimiter = RateLimiter(),
        logger: Logger = Logger(label: "iap-recon.verify-receipt")
    ) throws(AppStoreConfigError) {
        try endpoints.validate()
        self.endpoints = endpoints
        self.sharedSecret = sharedSecret
        self.retryPolicy = retryPolicy
        self.executor = AppleRequestExecutor(
            transport: transport, rateLimiter: rateLimiter, gate: ConcurrencyGate(limit: endpoints.concurrency),
            timeout: endpoints.requestTimeout, logger: logger)
    }

    /// Verifies one receipt.
    ///
    /// - Parameters:
    ///   - receiptData: The base64 receipt exactly as uploaded (app receipt or iOS 6 receipt).
    ///   - excludeOldTransactions: Sent as `exclude-old-transactions`.
    ///   - startAt: The environment to ask first (production, as Apple recommends).
    /// - Returns: Apple's final answer, an HTTP failure, or unreachable.
    public func verify(
        receiptData: String, excludeOldTransactions: Bool = false, startAt: StoreEnvironment = .production
    ) async -> VerifyReceiptResult {
        let body = requestBody(receiptData: receiptData, excludeOldTransactions: excludeOldTransactions)
        var environment: StoreEnvironment = startAt == .production ? .production : .sandbox
        var asked: Set<StoreEnvironment> = []
        var statuses: [Int] = []
        var attempts = 0
        while true {
            asked.insert(environment)
            let url = endpoints.verifyReceiptURL(for: environment)
            let request = AppleHTTPRequest(
                method: .post, url: url, headers: ["content-type": "application/json", "accept": "application/json"],
                body: body, endpoint: .verifyReceipt, environment: environment)
            let run: RetryRun<Final> = await retryPolicy.run { attempt in
                switch await executor.send(request, attempt: attempts + attempt) {
                case .failure(let error):
                    return .retry(reason: "\(error) at \(environment) verifyReceipt", retryAfter: nil)
                case .success(let response):
                    if let step: RetryStep<Final> = AppleRequestExecutor.transientHTTPStep(
                        response, now: retryPolicy.clock.now())
                    {
                        return step
                    }
                    guard response.status == 200 else { return .finish(.http(response.status)) }
                    guard let parsed = VerifyReceiptParser.parse(response.body) else {
                        return .retry(reason: "malformed JSON from \(environment) verifyReceipt", retryAfter: nil)
                    }
                    statuses.append(parsed.status)
                    if VerifyReceiptStatus.isTransient(parsed.status, isRetryable: parsed.isRetryable) {
                        return .retry(
                            reason: "status \(parsed.status) from \(environment) verifyReceipt", retryAfter: nil)
                    }
                    return .finish(.body(parsed))
                }
            }
            attempts += run.attempts
            switch run {
            case .exhausted(let reason, _):
                executor.logger.info(
                    "verifyReceipt unreachable", metadata: ["attempts": "\(attempts)", "reason": "\(reason)"])
                return .unreachable(reason: reason, statuses: statuses, attempts: attempts)
            case .finished(.http(let status), _):
                executor.logger.warning(
                    "verifyReceipt HTTP error", metadata: ["http_status": "\(status)", "environment": "\(environment)"])
                return .httpFailure(status: status, endpoint: url, statuses: statuses, attempts: attempts)
            case .finished(.body(let parsed), _):
                if parsed.status == VerifyReceiptStatus.sandboxReceiptAtProduction, environment == .production,
                    !asked.contains(.sandbox)
                {
                    environment = .sandbox
                    continue
                }
                if parsed.status == VerifyReceiptStatus.productionReceiptAtSandbox, environment == .sandbox,
                    !asked.contains(.production)
                {
                    environment = .production
                    continue
                }
                if parsed.status == VerifyReceiptStatus.sharedSecretMismatch {
                    executor.logger.error(
                        "verifyReceipt says the shared secret does not match (status 21004): check the configuration")
                }
                return .answered(
                    VerifyReceiptParser.answer(
                        from: parsed, answeredBy: environment, endpoint: url, statuses: statuses, attempts: attempts))
            }
        }
    }

    /// The final result of one endpoint's retry run.
    private enum Final: Sendable {
        case body(VerifyReceiptParser.Body)
        case http(Int)
    }

    private func requestBody(receiptData: String, excludeOldTransactions: Bool) -> Data {
        let payload = RequestBody(
            receiptData: receiptData, password: sharedSecret?.value, excludeOldTransactions: excludeOldTransactions)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(payload)) ?? Data()
    }

    private struct RequestBody: Encodable {
        var receiptData: String
        var password: String?
        var excludeOldTransactions: Bool

        enum CodingKeys: String, CodingKey {
            case receiptData = "receipt-data"
            case password
            case excludeOldTransactions = "exclude-old-transactions"
        }
    }
}
