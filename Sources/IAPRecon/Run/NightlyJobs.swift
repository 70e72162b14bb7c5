import Foundation
import Logging

/// The network side of the jobs: building Apple clients from the configuration, `verify`, and
/// the nightly `run`.
extension Jobs {
    /// Progress reporting for a terminal (nil when stderr is not a TTY).
    public typealias Progress = @Sendable (String, Int, Int) -> Void

    /// The Apple clients a configuration calls for, over one HTTP transport.
    static func verifyStage(
        config: ReconConfig, trust: TrustStore, transport: AsyncHTTPTransport, clock: TimeSource, logger: Logger
    ) throws -> VerifyStage {
        let endpoints: AppStoreEndpoints
        do {
            endpoints = try AppStoreEndpoints.parse(
                verifyReceiptProduction: config.verifyReceiptURL, verifyReceiptSandbox: config.sandboxVerifyReceiptURL,
                serverAPIProduction: config.serverAPIURL, serverAPISandbox: config.sandboxServerAPIURL,
                requestTimeout: .milliseconds(config.requestTimeoutMillis), concurrency: config.concurrency)
        } catch {
            throw ConfigError.invalid(key: "endpoint", value: "", expected: error.description)
        }
        let retry = RetryPolicy(
            maxAttempts: config.retryAttempts, budget: .milliseconds(config.retryBudgetMillis),
            baseDelay: .milliseconds(config.retryBaseDelayMillis))
        let limiter = RateLimiter()
        let verifyReceipt = try VerifyReceiptClient(
            endpoints: endpoints, sharedSecret: config.sharedSecret.map(SharedSecret.init), transport: transport,
            retryPolicy: retry, rateLimiter: limiter, logger: logger)
        var serverAPI: AppStoreServerAPIClient?
        if config.hasServerAPICredentials, let file = config.apiKeyFile, let keyID = config.apiKeyID,
            let issuer = config.issuerID, let bundle = config.bundleIDs.first
        {
            do {
                let key = try AppStoreAPIKey(keyID: keyID, issuerID: issuer, bundleID: bundle, p8File: URL(fileURLWithPath: file))
                serverAPI = try AppStoreServerAPIClient(
                    key: key, otherBundleIDs: Array(config.bundleIDs.dropFirst()), endpoints: endpoints, transport: transport, retryPolicy: retry, rateLimiter: limiter, logger: logger)
            } catch {
                throw ConfigError.invalid(key: "api-key-file", value: file, expected: error.description)
            }
        }
        let signedData = SignedDataVerifier(trust: trust, expectedBundleIDs: [])
        var stage = VerifyStage(
            verifyReceipt: verifyReceipt, serverAPI: serverAPI, signedData: signedData, bundleIDs: Set(config.bundleIDs),
            concurrency: config.concurrency, clock: clock)
        stage.excludeOldTransactions = config.excludeOldTransactions
        return stage
    }

    /// Decodes receipts offline, then verifies what is pending, over a fresh HTTP transport.
    static func decodeAndVerify(
        store: ReconStore, config: ReconConfig, trust: TrustStore, runID: Int64?, clock: TimeSource, logger: Logger,
        progress: Progress?
    ) async throws -> VerifySummary {
        let decoded = try await ReceiptDecodeStage(
            decoder: ReceiptDecoder(trust: trust, expectedBundleIDs: Set(config.bundleIDs)), clock: clock
        ).run(store: store, logger: logger)
        let transport = AsyncHTTPTransport(
            configuration: .init(
                maxConnectionsPerHost: config.concurrency, connectTimeout: .milliseconds(min(10_000, config.requestTimeoutMillis)),
                readTimeout: .milliseconds(config.requestTimeoutMillis)))
        do {
            let stage = try verifyStage(config: config, trust: trust, transport: transport, clock: clock, logger: logger)
            var summary = try await stage.run(store: store, runID: runID, logger: logger) { done, total in
                progress?("verify", done, total)
            }
            summary.receiptsDecoded = decoded
            try? await transport.shutdown()
            return summary
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    /// `iap-recon verify`: re-verify every pending transaction; results persisted one by one.
    public static func verify(
        config: ReconConfig, clock: TimeSource = .system, logger: Logger, progress: Progress? = nil
    ) async throws -> Outcome {
        let trust = try config.trustStore()
        let store = try ReconStore.existing(path: config.databasePath, clock: clock)
        let lock = try RunLock(storePath: config.databasePath, holder: lockHolder("verify", clock: clock))
        defer { withExtendedLifetime(lock) {} }
        let started = clock.nowMillis()
        let runID = try store.beginRun(command: "verify", startedAt: started, asOf: started)
        let summary = try await decodeAndVerify(
            store: store, config: config, trust: trust, runID: runID, clock: clock, logger: logger, progress: progress)
        let json = (try? JSONEncoder().encode(summary)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        try store.finishRun(runID, finishedAt: clock.nowMillis(), exitCode: 0, summaryJSON: json)
        return Outcome(exitCode: 0, lines: [summary.line])
    }

    enum OrderResolution {
        case success([String])
        case failure(String)
    }

    /// The transactions of an order, from Look Up Order ID (signed answers verified).
    static func resolveOrder(_ orderID: String, config: ReconConfig, logger: Logger) async throws -> OrderResolution {
        let trust = try config.trustStore()
        let transport = AsyncHTTPTransport(
            configuration: .init(maxConnectionsPerHost: 2, readTimeout: .milliseconds(config.requestTimeoutMillis)))
        defer { Task { try? await transport.shutdown() } }
        let stage = try verifyStage(config: config, trust: trust, transport: transport, clock: .system, logger: logger)
        guard let client = stage.serverAPI else { return .failure("App Store Server API is not configured") }
        switch await client.lookUpOrder(orderID: orderID) {
        case .unreachable(let reason, let attempts):
            return .failure("Apple could not be reached (\(reason), \(attempts) attempts); try again later")
        case .failure(let failure):
            return .failure("Apple answered HTTP \(failure.httpStatus)\(failure.apiError.map { " error \($0.rawValue)" } ?? "")")
        case .success(let answer):
            guard answer.isValid else { return .failure("Apple says this order id is not valid (status \(answer.status))") }
            var ids: [String] = []
            for signed in answer.signedTransactions {
                if case .valid(let payload) = await stage.signedData.verifyAndDecodeTransaction(signed),
                    let id = payload.transactionId
                {
                    ids.append(id)
                }
            }
            return .success(ids)
        }
    }

    static func lockHolder(_ command: String, clock: TimeSource) -> String {
        "iap-recon \(command) (pid \(getpid())) since \(Timestamp.iso(clock.nowMillis()))"
    }

    /// `iap-recon run`: the nightly job. Import (when files are given) → decode → verify →
    /// detect → report, recorded as one run, under an exclusive lock on the store.
    public static func nightly(
        _ request: ImportRequest, config: ReconConfig, clock: TimeSource = .system, logger: Logger,
        progress: Progress? = nil
    ) async throws -> Outcome {
        let trust = try config.trustStore()
        _ = try config.resolvedTimeZone()
        let store = try ReconStore(path: config.databasePath, clock: clock)
        let lock = try RunLock(storePath: config.databasePath, holder: lockHolder("run", clock: clock))
        defer { withExtendedLifetime(lock) {} }
        var summary = try beginRun("run", startedAt: clock.nowMillis(), store: store, config: config)
        var lines: [String] = []

        if !request.isEmpty {
            let importStart = clock.nowMillis()
            let files = try Importer(progress: { file, rows in progress?("import", rows, 0) }).run(request, into: store)
            summary.inputs = files
            summary.counts.read = files.reduce(0) { $0 + $1.read }
            summary.counts.accepted = files.reduce(0) { $0 + $1.accepted }
            summary.counts.rejected = files.reduce(0) { $0 + $1.rejected }
            summary.stages.append(
                .init(
                    name: "import", durationMillis: clock.nowMillis() - importStart,
                    counts: ["read": summary.counts.read, "accepted": summary.counts.accepted, "rejected": summary.counts.rejected]))
            lines += files.flatMap { [$0.line] + ($0.warnings ?? []).map { "warning: " + $0 } }
        }

        let verifyStart = clock.nowMillis()
        let verified = try await decodeAndVerify(
            store: store, config: config, trust: trust, runID: summary.runID, clock: clock, logger: logger,
            progress: progress)
        summary.counts.verified = verified.verified
        summary.counts.invalid = verified.invalid
        summary.stages.append(
            .init(
                name: "verify", durationMillis: clock.nowMillis() - verifyStart,
                counts: [
                    "receipts_decoded": verified.receiptsDecoded, "verified": verified.verified, "invalid": verified.invalid,
                    "unreachable": verified.unreachable, "no_evidence": verified.noEvidence, "requests": verified.requests,
                ]))
        lines.append(verified.line)

        let outcome = try detectAndReport(store: store, summary: summary, config: config, clock: clock, logger: logger)
        return Outcome(exitCode: outcome.exitCode, lines: lines + outcome.lines)
    }
}
