import AppleData
import Foundation
import Logging
import ReconFindings
import ReconImport
import ReconLookup
import ReconModel
import ReconReports
import ReconStorage
import ReconVerify

/// The composition root: everything a command works with, built in one place from validated settings — the store,
/// the one clock, the trust store, the logger, the HTTP transport and the Apple clients.
///
/// The executable builds one per command; tests build the same.
///
/// The commands themselves are methods (`importFiles`, `verify`, `report`, `nightly`, `lookup`;
/// `answer` for the support web view). `lookup` and `serve` build a read-only root.
public final class ReconDependencies {
    public let settings: ReconSettings
    /// The one clock: store timestamps, the run record, retries, rate limits, tokens, chains.
    public let clock: any ReconClock
    public let logger: Logger
    public let store: ReconStore
    /// Apple's roots plus `--trusted-root`, for every signature check.
    public var trust: TrustStore { settings.trust }
    /// The HTTP transport when given (tests); nil builds a real one per network stage.
    private let transport: (any HTTPTransport)?

    /// Opens the store and keeps the rest for the stages.
    ///
    /// - Parameters:
    ///   - transport: the HTTP seam; nil (production) builds an ``AsyncHTTPTransport`` from the
    ///     settings when a stage needs the network, and shuts it down after.
    ///   - opening: whether the command may create the store (`import`, `run`, `demo`), needs it
    ///     to exist (`verify`, `report`), or reads it without writing (`lookup`, `serve`).
    /// - Throws: ``StoreError`` when the store cannot be opened (``StoreError/noStore(path:)``
    ///   when it must exist and does not).
    public init(
        settings: ReconSettings, clock: any ReconClock = SystemClock(), logger: Logger,
        transport: (any HTTPTransport)? = nil, opening: ReconStore.Opening = .createIfAbsent
    ) throws {
        self.settings = settings
        self.clock = clock
        self.logger = logger
        self.transport = transport
        store = try ReconStore(path: settings.databasePath, clock: clock, opening)
    }

    /// Validates `config`, then as ``init(settings:clock:logger:transport:opening:)``.
    ///
    /// - Throws: ``ConfigError`` naming the key at fault, or ``StoreError``.
    public convenience init(
        config: ReconConfig, clock: any ReconClock = SystemClock(), logger: Logger,
        transport: (any HTTPTransport)? = nil, opening: ReconStore.Opening = .createIfAbsent
    ) throws {
        try self.init(
            settings: config.validated(), clock: clock, logger: logger, transport: transport, opening: opening)
    }

    /// The store's exclusive lock for `command`; every command that writes the store takes it.
    ///
    /// - Throws: ``StoreError/locked(holder:)`` naming the holder when another process has it.
    package func lock(_ command: String) throws -> RunLock {
        let host = ProcessInfo.processInfo.hostName
        let holder = "iap-recon \(command) (pid \(getpid()) on \(host)) since \(Timestamp.iso(clock.nowMillis()))"
        return try RunLock(store: store, holder: holder)
    }

    // MARK: Stages

    package func importStage(progress: RunProgress?) -> ImportStage {
        var stage = ImportStage(
            store: store, notifications: NotificationImporter(check: notificationCheck()),
            progress: progress.map { report in { _, rows in report("import", rows, 0) } })
        stage.timer = PhaseTimer("import", clock: clock, logger: logger)
        return stage
    }

    /// Checks App Store Server Notifications against the trust store and the app's bundle ids.
    package func notificationCheck() -> NotificationCheck {
        NotificationCheck(trust: trust, bundleIDs: Set(settings.bundleIDs), clock: clock)
    }

    /// The Get Notification History sweep over `client`; its "now" is the run's (``RunContext/appleNow()``).
    package func notificationSweep(_ client: AppStoreServerAPIClient) -> NotificationHistorySweep {
        NotificationHistorySweep(client: client, check: notificationCheck(), historyDays: settings.historyDays)
    }

    /// The subscription status sweep over `client`, checking Apple's JWS with the notifications' verifier.
    package func subscriptionSweep(_ client: AppStoreServerAPIClient) -> SubscriptionStatusSweep {
        SubscriptionStatusSweep(
            client: client, verifier: notificationCheck().verifier,
            lookbackMillis: settings.entitlementLookback.inMilliseconds, concurrency: settings.endpoints.concurrency)
    }

    package func decodeStage() -> DecodeStage {
        DecodeStage(decoder: ReceiptDecoder(trust: trust, expectedBundleIDs: Set(settings.bundleIDs), clock: clock))
    }

    package func verifyStage(_ apple: AppleClients) -> VerifyStage {
        var stage = VerifyStage(
            verifyReceipt: apple.verifyReceipt, serverAPI: apple.serverAPI, signedData: apple.signedData,
            bundleIDs: Set(settings.bundleIDs), concurrency: settings.endpoints.concurrency)
        stage.excludeOldTransactions = settings.excludeOldTransactions
        stage.notificationSweep = apple.serverAPI.map(notificationSweep)
        stage.subscriptionSweep = apple.serverAPI.map(subscriptionSweep)
        return stage
    }

    /// The detect stage's engine over this root's store, clock and logger.
    public func detectionEngine() -> DetectionEngine {
        DetectionEngine(settings: settings.detection, store: store, clock: clock, logger: logger)
    }

    public func reportStage() -> ReportStage {
        var stage = ReportStage(
            outputDirectory: settings.outputDirectory, timeZoneName: settings.timeZone.identifier, logger: logger,
            clock: clock)
        stage.recognitionBasis = settings.config.recognitionBasis
        return stage
    }

    // MARK: Apple

    /// The Apple clients, over one HTTP transport, sharing one retry policy and rate limiter on
    /// the root's clock.
    public struct AppleClients: Sendable {
        public var verifyReceipt: VerifyReceiptClient
        /// Present when App Store Server API credentials are configured.
        public var serverAPI: AppStoreServerAPIClient?
        /// Checks Apple's signed answers.
        public var signedData: SignedDataVerifier
    }

    /// Runs `body` with the Apple clients; a transport built here is shut down afterwards.
    ///
    /// - Throws: ``ConfigError`` when a client cannot be built (e.g. an unreadable `.p8`), or
    ///   what `body` throws.
    package func withAppleClients<T>(_ body: (AppleClients) async throws -> T) async throws -> T {
        if let transport { return try await body(try appleClients(over: transport)) }
        let owned = AsyncHTTPTransport(configuration: .matching(settings.endpoints))
        do {
            let result = try await body(try appleClients(over: owned))
            try? await owned.shutdown()
            return result
        } catch {
            try? await owned.shutdown()
            throw error
        }
    }

    private func appleClients(over transport: any HTTPTransport) throws(ConfigError) -> AppleClients {
        let retry = RetryPolicy(
            maxAttempts: settings.retry.attempts, budget: settings.retry.budget, baseDelay: settings.retry.baseDelay,
            clock: clock)
        let limiter = RateLimiter(clock: clock)
        let verifyReceipt: VerifyReceiptClient
        do {
            verifyReceipt = try VerifyReceiptClient(
                endpoints: settings.endpoints, sharedSecret: settings.sharedSecret, transport: transport,
                retryPolicy: retry, rateLimiter: limiter, logger: logger)
        } catch {
            throw .invalid(key: "endpoint", value: "", expected: error.description)
        }
        var serverAPI: AppStoreServerAPIClient?
        if let file = settings.serverAPIKey {
            do {
                let key = try AppStoreAPIKey(
                    keyID: file.keyID, issuerID: file.issuerID, bundleID: file.bundleID,
                    p8File: URL(fileURLWithPath: file.path))
                serverAPI = try AppStoreServerAPIClient(
                    key: key, otherBundleIDs: Array(settings.bundleIDs.dropFirst()), endpoints: settings.endpoints,
                    transport: transport, retryPolicy: retry, rateLimiter: limiter, logger: logger)
            } catch {
                throw .invalid(key: "api-key-file", value: file.path, expected: error.description)
            }
        }
        return AppleClients(
            verifyReceipt: verifyReceipt, serverAPI: serverAPI,
            signedData: SignedDataVerifier(trust: trust, expectedBundleIDs: [], clock: clock))
    }
}
