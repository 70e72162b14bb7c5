import Foundation
import Logging
import ReconModel

/// Calls the App Store Server API with an ES256 bearer token, retrying transient failures under
/// one ``RetryPolicy`` and falling back from production to sandbox where Apple says "not here".
///
/// Answers are Apple's signed JWS strings, returned as they came: checking them is the chain
/// verifier's job. Every call returns an ``ServerAPIResult``; nothing but configuration throws.
public struct AppStoreServerAPIClient: Sendable {
    /// Where to send requests, the per-request timeout and the concurrency.
    public let endpoints: AppStoreEndpoints
    /// One token signer per app (the key's bundle id first): a token carries one `bid`, and
    /// Apple answers another app's transaction id with "not found".
    package let signers: [AppStoreTokenSigner]
    package let retryPolicy: RetryPolicy
    package let executor: AppleRequestExecutor

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - key: The `.p8` key with key id, issuer id and bundle id.
    ///   - endpoints: URLs, timeout, concurrency (validated here).
    ///   - transport: The HTTP seam (``AsyncHTTPTransport`` in production).
    ///   - retryPolicy: Backoff, attempts, budget, and the clock (also used for token `iat`).
    ///   - rateLimiter: Shared token buckets (Apple's per-endpoint rates by default).
    ///   - tokenLifetime: `exp − iat` of the bearer tokens, at most 60 minutes.
    ///   - logger: Where request outcomes go (debug level).
    ///   - otherBundleIDs: The app's further bundle ids (`--bundle-id` beyond the first): a call
    ///     Apple answers "not found" for one app is asked again for the next.
    /// - Throws: ``AppStoreConfigError`` for invalid endpoints or token lifetime.
    public init(
        key: AppStoreAPIKey, otherBundleIDs: [String] = [], endpoints: AppStoreEndpoints = .apple,
        transport: any HTTPTransport,
        retryPolicy: RetryPolicy = .default, rateLimiter: RateLimiter = RateLimiter(),
        tokenLifetime: Duration = .seconds(5 * 60),
        logger: Logger = Logger(label: "iap-recon.server-api")
    ) throws(AppStoreConfigError) {
        try endpoints.validate()
        self.endpoints = endpoints
        var bundles = [key.bundleID]
        for bundle in otherBundleIDs where !bundle.isEmpty && !bundles.contains(bundle) { bundles.append(bundle) }
        var signers: [AppStoreTokenSigner] = []
        for bundle in bundles {
            signers.append(
                try AppStoreTokenSigner(key: key.forBundle(bundle), lifetime: tokenLifetime, clock: retryPolicy.clock))
        }
        self.signers = signers
        self.retryPolicy = retryPolicy
        self.executor = AppleRequestExecutor(
            transport: transport, rateLimiter: rateLimiter, gate: ConcurrencyGate(limit: endpoints.concurrency),
            timeout: endpoints.requestTimeout, logger: logger)
    }

    /// Get Transaction Info (`GET /inApps/v1/transactions/{transactionId}`).
    ///
    /// - Parameters:
    ///   - transactionID: Any transaction id (original or not).
    ///   - environment: The environment to ask; nil asks production, then sandbox when
    ///     production answers 4040010, 4040005 or a bare 401.
    public func transactionInfo(transactionID: String, environment: StoreEnvironment? = nil) async
        -> ServerAPIResult<TransactionInfoAnswer>
    {
        let path = "/inApps/v1/transactions/" + Self.escapePath(transactionID)
        let (call, asked, attempts) = await acrossApps(
            { signer in
                await performWithFallback(
                    .transactionInfo, environment: environment, path: path, query: [], signer: signer
                ) { json in json["signedTransactionInfo"]?.string }
            }, notFound: { Self.isNotFound($0.0) })
        return call.result(environment: asked, attempts: attempts) { signed in
            TransactionInfoAnswer(signedTransactionInfo: signed, environment: asked, attempts: attempts)
        }
    }

    /// Get Transaction History v2 (`GET /inApps/v2/history/{transactionId}`), every page.
    ///
    /// - Parameters:
    ///   - transactionID: Any transaction id of the customer.
    ///   - environment: The environment to ask; nil falls back as ``transactionInfo(transactionID:environment:)``.
    ///   - revision: Start after this revision (from an earlier answer); nil for everything.
    ///   - maxPages: Stop after this many pages (the answer then says `hasMore`).
    public func transactionHistory(
        transactionID: String, environment: StoreEnvironment? = nil, revision: String? = nil, maxPages: Int = 500
    ) async -> ServerAPIResult<TransactionHistoryAnswer> {
        await acrossApps(
            { signer in
                await pagedHistory(
                    .transactionHistory, path: "/inApps/v2/history/" + Self.escapePath(transactionID),
                    environment: environment, revision: revision, maxPages: maxPages, signer: signer)
            }, notFound: Self.isNotFound)
    }

    /// Get Refund History v2 (`GET /inApps/v2/refund/lookup/{transactionId}`), every page.
    ///
    /// - Parameters:
    ///   - transactionID: Any transaction id of the customer.
    ///   - environment: The environment to ask; nil falls back as ``transactionInfo(transactionID:environment:)``.
    ///   - revision: Start after this revision; nil for everything.
    ///   - maxPages: Stop after this many pages.
    public func refundHistory(
        transactionID: String, environment: StoreEnvironment? = nil, revision: String? = nil, maxPages: Int = 500
    ) async -> ServerAPIResult<TransactionHistoryAnswer> {
        await acrossApps(
            { signer in
                await pagedHistory(
                    .refundHistory, path: "/inApps/v2/refund/lookup/" + Self.escapePath(transactionID),
                    environment: environment, revision: revision, maxPages: maxPages, signer: signer)
            }, notFound: Self.isNotFound)
    }

    /// Look Up Order ID (`GET /inApps/v1/lookup/{orderId}`).
    ///
    /// An unknown order is a success with `status` 1, not a failure.
    public func lookUpOrder(orderID: String, environment: StoreEnvironment = .production) async
        -> ServerAPIResult<OrderLookupAnswer>
    {
        let path = "/inApps/v1/lookup/" + Self.escapePath(orderID)
        let (call, attempts) = await acrossApps(
            { signer in
                await perform(.orderLookup, environment: environment, path: path, query: [], signer: signer) {
                    json -> (Int, [String])? in
                    guard let status = json["status"]?.int64, let small = Int(exactly: status) else { return nil }
                    let signed = json["signedTransactions"]?.list.compactMap(\.string) ?? []
                    return (small, signed)
                }
            },
            notFound: { answer in
                // Status 1: the order id is not this app's.
                if case .ok(let (status, _)) = answer.0 { return status == OrderLookupStatus.invalid }
                return false
            })
        return call.result(environment: environment, attempts: attempts) { status, signed in
            OrderLookupAnswer(status: status, signedTransactions: signed, environment: environment, attempts: attempts)
        }
    }

    // MARK: - Paging

    private struct HistoryPage: Sendable {
        var signedTransactions: [String]
        var revision: String?
        var hasMore: Bool
        var bundleID: String?
        var appAppleID: Int64?
        var environment: StoreEnvironment?
    }

    private func pagedHistory(
        _ endpoint: AppleEndpointKind, path: String, environment: StoreEnvironment?, revision: String?,
        maxPages: Int, signer: AppStoreTokenSigner
    ) async -> ServerAPIResult<TransactionHistoryAnswer> {
        let decode: @Sendable (AppleJSONValue) -> HistoryPage? = { json in
            guard json.object != nil, let signed = json["signedTransactions"] else { return nil }
            return HistoryPage(
                signedTransactions: signed.list.compactMap(\.string),
                revision: json["revision"]?.string,
                hasMore: json["hasMore"]?.bool ?? false,
                bundleID: json["bundleId"]?.string,
                appAppleID: json["appAppleId"]?.int64,
                environment: json["environment"]?.string.map(StoreEnvironment.init(raw:)))
        }
        var transactions: [String] = []
        var currentRevision = revision
        var pages = 0
        var attempts = 0
        var asked = environment ?? .production
        var last: HistoryPage?
        while true {
            let query = currentRevision.map { [("revision", $0)] } ?? []
            let call: Call<HistoryPage>
            if pages == 0 {
                let first = await performWithFallback(
                    endpoint, environment: environment, path: path, query: query, signer: signer, decode)
                (call, asked) = (first.0, first.1)
                attempts += first.2
            } else {
                let next = await perform(endpoint, environment: asked, path: path, query: query, signer: signer, decode)
                call = next.0
                attempts += next.1
            }
            switch call {
            case .failed(let status, let apiError, let message):
                return .failure(
                    APIFailure(
                        httpStatus: status, apiError: apiError, message: message, environment: asked,
                        attempts: attempts))
            case .unreachable(let reason):
                return .unreachable(reason: "\(reason) (page \(pages + 1))", attempts: attempts)
            case .ok(let page):
                pages += 1
                transactions += page.signedTransactions
                last = page
                let advanced = page.revision != nil && page.revision != currentRevision
                if page.hasMore, advanced, pages < maxPages {
                    currentRevision = page.revision
                    continue
                }
                if page.hasMore, !advanced {
                    executor.logger.warning(
                        "Apple said hasMore without a new revision; paging stopped",
                        metadata: ["endpoint": "\(endpoint)", "pages": "\(pages)"])
                }
                return .success(
                    TransactionHistoryAnswer(
                        signedTransactions: transactions, revision: page.revision ?? currentRevision,
                        hasMore: page.hasMore, pages: pages, bundleID: last?.bundleID, appAppleID: last?.appAppleID,
                        environment: page.environment ?? asked, attempts: attempts))
            }
        }
    }

    // MARK: - Several apps

    /// `call` with each app's token in turn until one answer is not "not found" (the last
    /// app's answer otherwise).
    package func acrossApps<Result>(
        _ call: (AppStoreTokenSigner) async -> Result, notFound: (Result) -> Bool
    ) async -> Result {
        var answer = await call(signers[0])
        for signer in signers.dropFirst() where notFound(answer) {
            answer = await call(signer)
        }
        return answer
    }

    package static func isNotFound<Value>(_ call: Call<Value>) -> Bool {
        if case .failed(_, let apiError, _) = call { return apiError?.isNotFoundInEnvironment == true }
        return false
    }

    private static func isNotFound<Value>(_ result: ServerAPIResult<Value>) -> Bool {
        if case .failure(let failure) = result { return failure.apiError?.isNotFoundInEnvironment == true }
        return false
    }

    // MARK: - One call

    package enum Call<Value: Sendable>: Sendable {
        case ok(Value)
        case failed(httpStatus: Int, apiError: AppleAPIError?, message: String?)
        case unreachable(String)

        /// The caller's result: `answer` of the value, else Apple's failure in `environment`, else
        /// unreachable, each with the attempts it took.
        package func result<Answer>(environment: StoreEnvironment, attempts: Int, _ answer: (Value) -> Answer)
            -> ServerAPIResult<Answer>
        {
            switch self {
            case .ok(let value):
                return .success(answer(value))
            case .failed(let status, let apiError, let message):
                return .failure(
                    APIFailure(
                        httpStatus: status, apiError: apiError, message: message, environment: environment,
                        attempts: attempts))
            case .unreachable(let reason):
                return .unreachable(reason: reason, attempts: attempts)
            }
        }
    }

    /// One logical call: production first when `environment` is nil, then sandbox when
    /// production says the id is not there (4040010, 4040005) or answers a bare 401.
    package func performWithFallback<Value: Sendable>(
        _ endpoint: AppleEndpointKind, environment: StoreEnvironment?, path: String, query: [(String, String)],
        signer: AppStoreTokenSigner, _ decode: @escaping @Sendable (AppleJSONValue) -> Value?
    ) async -> (Call<Value>, StoreEnvironment, Int) {
        if let environment {
            let (call, attempts) = await perform(
                endpoint, environment: environment, path: path, query: query, signer: signer, decode)
            return (call, environment, attempts)
        }
        let (production, productionAttempts) = await perform(
            endpoint, environment: .production, path: path, query: query, signer: signer, decode)
        guard case .failed(let status, let apiError, _) = production,
            apiError?.isNotFoundInEnvironment == true || (status == 401 && apiError == nil)
        else { return (production, .production, productionAttempts) }
        executor.logger.debug(
            "Not known in production; asking sandbox",
            metadata: ["endpoint": "\(endpoint)", "http_status": "\(status)", "error": "\(apiError?.rawValue ?? 0)"])
        let (sandbox, sandboxAttempts) = await perform(
            endpoint, environment: .sandbox, path: path, query: query, signer: signer, decode)
        return (sandbox, .sandbox, productionAttempts + sandboxAttempts)
    }

    /// One endpoint call in one environment, retried under the policy.
    package func perform<Value: Sendable>(
        _ endpoint: AppleEndpointKind, environment: StoreEnvironment, path: String, query: [(String, String)],
        method: AppleHTTPRequest.Method = .get, body: Data? = nil,
        signer: AppStoreTokenSigner, _ decode: @escaping @Sendable (AppleJSONValue) -> Value?
    ) async -> (Call<Value>, Int) {
        let url = Self.url(base: endpoints.serverAPIBase(for: environment), path: path, query: query)
        let run: RetryRun<Call<Value>> = await retryPolicy.run { attempt in
            let token = await signer.token()
            var headers = ["authorization": "Bearer " + token, "accept": "application/json"]
            if body != nil { headers["content-type"] = "application/json" }
            let request = AppleHTTPRequest(
                method: method, url: url, headers: headers, body: body, endpoint: endpoint, environment: environment)
            switch await executor.send(request, attempt: attempt) {
            case .failure(let error):
                return .retry(reason: "\(error) at \(environment) \(endpoint)", retryAfter: nil)
            case .success(let response):
                if let step: RetryStep<Call<Value>> = AppleRequestExecutor.transientHTTPStep(
                    response, now: retryPolicy.clock.now())
                {
                    return step
                }
                // Send Consumption Information answers 202 Accepted with no body.
                if response.status == 202, method == .put, let value = decode(.null) {
                    return .finish(.ok(value))
                }
                if response.status == 200 {
                    guard let json = AppleJSONValue.parse(response.body), let value = decode(json) else {
                        return .retry(reason: "malformed JSON from \(environment) \(endpoint)", retryAfter: nil)
                    }
                    return .finish(.ok(value))
                }
                let body = AppleJSONValue.parse(response.body)
                let apiError = body?["errorCode"]?.int64.map(AppleAPIError.init(rawValue:))
                let message = body?["errorMessage"]?.string
                if let apiError, apiError.isRetryable {
                    return .retry(reason: "error \(apiError) from \(environment) \(endpoint)", retryAfter: nil)
                }
                return .finish(.failed(httpStatus: response.status, apiError: apiError, message: message))
            }
        }
        switch run {
        case .finished(let call, let attempts):
            return (call, attempts)
        case .exhausted(let reason, let attempts):
            executor.logger.info(
                "App Store Server API unreachable",
                metadata: ["endpoint": "\(endpoint)", "attempts": "\(attempts)", "reason": "\(reason)"])
            return (.unreachable(reason), attempts)
        }
    }

    package static func url(base: URL, path: String, query: [(String, String)]) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += path
        if !query.isEmpty {
            text += "?" + query.map { escapeQuery($0.0) + "=" + escapeQuery($0.1) }.joined(separator: "&")
        }
        return URL(string: text) ?? base
    }

    package static func escapePath(_ segment: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#;")
        return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
    }

    package static func escapeQuery(_ value: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
