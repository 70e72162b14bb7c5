import AppStoreTestSigning
import Foundation
import Hummingbird
import IAPRecon
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fake App Store on loopback: `verifyReceipt` and the App Store Server API over real HTTP,
/// answering from a ``SimulatorSeed``, with fault knobs (``FaultPlan``) and a request log.
///
/// Routes, under a production base (`/production`) and a sandbox base (`/sandbox`):
/// `POST /verifyReceipt`, `GET /inApps/v1/transactions/{id}`, `GET /inApps/v2/history/{id}`,
/// `GET /inApps/v1/lookup/{orderId}`, `GET /inApps/v2/refund/lookup/{id}`,
/// `POST /inApps/v1/notifications/history`, `GET /inApps/v1/subscriptions/{id}`,
/// `PUT /inApps/v2/transactions/consumption/{id}`. Server API answers are JWS signed by a test
/// ``SigningAuthority`` whose root is ``rootCertificateDER``.
/// ```swift
/// let sim = try await AppStoreSimulator.start(seed: seed, faults: FaultPlan([.first(2, at: "/production/verifyReceipt", .httpStatus(503, errorCode: nil))]))
/// defer { Task { await sim.stop() } }
/// let client = try VerifyReceiptClient(endpoints: sim.endpoints(), transport: transport)
/// ```
public final class AppStoreSimulator: Sendable {
    /// The host the server is bound to.
    public let host: String
    /// The bound port (the ephemeral one when started with port 0).
    public let port: Int
    /// Every request received.
    public let requestLog: SimulatorRequestLog
    /// The test CA that signs every JWS answer.
    public let authority: SigningAuthority
    private let state: SimulatorState
    private let group: ServiceGroup
    private let runTask: Task<Void, Never>

    private init(
        host: String, port: Int, state: SimulatorState, group: ServiceGroup, runTask: Task<Void, Never>
    ) {
        self.host = host
        self.port = port
        self.requestLog = state.log
        self.authority = state.authority
        self.state = state
        self.group = group
        self.runTask = runTask
    }

    /// DER of the root certificate to trust for the simulator's JWS.
    public var rootCertificateDER: [UInt8] { authority.rootDER }

    /// PEM of the root certificate (write it to a file for `--trusted-root`).
    public var rootCertificatePEM: String { authority.rootPEM }

    /// `http://host:port`.
    public var baseURL: URL { Self.url("http://\(hostForURL):\(port)") }

    /// The production base: `http://host:port/production`.
    public var productionBaseURL: URL { Self.url("http://\(hostForURL):\(port)/production") }

    /// The sandbox base: `http://host:port/sandbox`.
    public var sandboxBaseURL: URL { Self.url("http://\(hostForURL):\(port)/sandbox") }

    /// Client endpoints pointing every URL at this simulator (a test's short timeout, Apple's concurrency).
    public func endpoints(
        requestTimeout: Duration = .seconds(5), concurrency: Int = AppStoreEndpoints.apple.concurrency
    ) -> AppStoreEndpoints {
        AppStoreEndpoints(
            verifyReceiptProduction: productionBaseURL.appendingPathComponent("verifyReceipt"),
            verifyReceiptSandbox: sandboxBaseURL.appendingPathComponent("verifyReceipt"),
            serverAPIProduction: productionBaseURL,
            serverAPISandbox: sandboxBaseURL,
            requestTimeout: requestTimeout,
            concurrency: concurrency)
    }

    /// Replaces the fault plan (rule counters restart).
    public func setFaults(_ plan: FaultPlan) {
        state.faults.replace(plan)
    }

    /// Stops the server gracefully; safe to call more than once.
    ///
    /// Held (`hang`) requests are released and closed, in-flight answers finish, then the
    /// listener closes.
    public func stop() async {
        state.beginShutdown()
        await group.triggerGracefulShutdown()
        await runTask.value
    }

    /// Starts a simulator and returns once it is listening.
    ///
    /// - Parameters:
    ///   - seed: The truth to answer from.
    ///   - faults: Fault knobs; none by default.
    ///   - host: Bind address, loopback by default.
    ///   - port: Port; 0 picks a free one (see ``port``).
    ///   - authorityOptions: The test CA (keys derive from its seed).
    ///   - maxHang: The longest a `hang` fault holds a request.
    ///   - logger: Server logs; quiet (warnings and worse) by default.
    /// - Throws: ``SimulatorError`` for an inconsistent seed or a server that cannot bind.
    public static func start(
        seed: SimulatorSeed, faults: FaultPlan = .none, host: String = "127.0.0.1", port: Int = 0,
        authorityOptions: SigningAuthority.Options = AppStoreSimulator.defaultAuthorityOptions,
        maxHang: Duration = .seconds(30), logger: Logger? = nil
    ) async throws(SimulatorError) -> AppStoreSimulator {
        var quiet = Logger(label: "iap-recon.simulator")
        quiet.logLevel = .warning
        let logger = logger ?? quiet
        let state = try SimulatorState(
            seed: seed, faults: faults, authorityOptions: authorityOptions, maxHang: maxHang)
        let (app, ports) = makeApplication(state: state, host: host, port: port, logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [app, ShutdownRelay(state: state)], gracefulShutdownSignals: [], logger: logger))
        let failure = Mutex<String?>(nil)
        let runTask = Task {
            do {
                try await group.run()
            } catch {
                failure.withLock { $0 = String(describing: error) }
            }
            ports.continuation.finish()
        }
        var iterator = ports.stream.makeAsyncIterator()
        guard let bound = await iterator.next(), bound > 0 else {
            state.beginShutdown()
            await group.triggerGracefulShutdown()
            await runTask.value
            throw .startFailed(failure.withLock { $0 } ?? "the server did not report a bound port")
        }
        return AppStoreSimulator(host: host, port: bound, state: state, group: group, runTask: runTask)
    }

    /// Runs a simulator in the foreground until SIGTERM or SIGINT (`iap-recon simulator`).
    ///
    /// - Parameters:
    ///   - port: Port to listen on (0 for any; the bound port is logged).
    ///   - seedFile: Path of a ``SimulatorSeed`` JSON file.
    ///   - host: Bind address, loopback by default.
    ///   - faults: Fault knobs; none by default.
    ///   - logger: Logs (startup line with the URLs at info level).
    /// - Throws: ``SimulatorError`` for a bad seed file or a server that cannot bind.
    public static func run(
        port: Int, seedFile: String, host: String = "127.0.0.1", faults: FaultPlan = .none,
        logger: Logger = Logger(label: "iap-recon.simulator")
    ) async throws {
        let seed = try SimulatorSeed.load(from: URL(fileURLWithPath: seedFile))
        let state = try SimulatorState(
            seed: seed, faults: faults, authorityOptions: defaultAuthorityOptions, maxHang: .seconds(30))
        let (app, ports) = makeApplication(state: state, host: host, port: port, logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [app, ShutdownRelay(state: state)], gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        let announcer = Task {
            for await bound in ports.stream {
                logger.info(
                    "App Store simulator listening",
                    metadata: [
                        "production": "http://\(host):\(bound)/production",
                        "sandbox": "http://\(host):\(bound)/sandbox",
                    ])
            }
        }
        defer { announcer.cancel() }
        do {
            try await group.run()
        } catch {
            throw SimulatorError.startFailed(String(describing: error))
        }
    }

    /// The default test CA: a fixed seed, valid 2020–2045.
    public static let defaultAuthorityOptions = SigningAuthority.Options(
        seed: "iap-recon app store simulator", organization: "iap-recon App Store Simulator")

    private var hostForURL: String { host.contains(":") ? "[\(host)]" : host }

    private static func url(_ text: String) -> URL {
        URL(string: text) ?? URL(fileURLWithPath: "/")
    }

    // MARK: - Server

    private static func makeApplication(
        state: SimulatorState, host: String, port: Int, logger: Logger
    ) -> (some Service, (stream: AsyncStream<Int>, continuation: AsyncStream<Int>.Continuation)) {
        let ports = AsyncStream<Int>.makeStream()
        let router = Router(context: SimulatorContext.self)
        router.add(middleware: SimulatorMiddleware(state: state))

        router.post("/:environment/verifyReceipt") { request, context -> Response in
            guard let environment = environment(context) else { return reply(.empty(404)) }
            let buffer = try await request.body.collect(upTo: 8 << 20)
            let body = Data(buffer.getBytes(at: buffer.readerIndex, length: buffer.readableBytes) ?? [])
            if let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
                let data = json["receipt-data"] as? String
            {
                state.log.noteReceipt(SimulatorReceipt.hash(data), environment: environment)
            }
            return reply(
                SimulatedVerifyReceipt.answer(store: state.store, endpoint: environment, body: body, now: Date()))
        }
        router.get("/:environment/inApps/v1/transactions/:id") { request, context -> Response in
            serverAPI(request, context, state) { environment, now, bundleID in
                SimulatedServerAPI.transactionInfo(
                    store: state.store, authority: state.authority, environment: environment,
                    id: context.parameters.get("id") ?? "", now: now, bundleID: bundleID)
            }
        }
        router.get("/:environment/inApps/v2/history/:id") { request, context -> Response in
            serverAPI(request, context, state) { environment, now, bundleID in
                SimulatedServerAPI.history(
                    store: state.store, authority: state.authority, environment: environment,
                    id: context.parameters.get("id") ?? "",
                    revision: request.uri.queryParameters.get("revision"), now: now, bundleID: bundleID)
            }
        }
        router.get("/:environment/inApps/v1/lookup/:orderId") { request, context -> Response in
            serverAPI(request, context, state) { environment, now, bundleID in
                SimulatedServerAPI.orderLookup(
                    store: state.store, authority: state.authority, environment: environment,
                    orderID: context.parameters.get("orderId") ?? "", now: now, bundleID: bundleID)
            }
        }
        router.post("/:environment/inApps/v1/notifications/history") { request, context -> Response in
            let buffer = try await request.body.collect(upTo: 1 << 20)
            let body = Data(buffer.getBytes(at: buffer.readerIndex, length: buffer.readableBytes) ?? [])
            return serverAPI(request, context, state) { environment, _, _ in
                SimulatedNotificationHistory.answer(
                    store: state.store, authority: state.authority, environment: environment, body: body,
                    paginationToken: request.uri.queryParameters.get("paginationToken"))
            }
        }
        router.get("/:environment/inApps/v2/refund/lookup/:id") { request, context -> Response in
            serverAPI(request, context, state) { environment, now, bundleID in
                SimulatedServerAPI.refundHistory(
                    store: state.store, authority: state.authority, environment: environment,
                    id: context.parameters.get("id") ?? "",
                    revision: request.uri.queryParameters.get("revision"), now: now, bundleID: bundleID)
            }
        }
        addSubscriptionRoutes(to: router, state: state)

        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: port), serverName: "AppStoreSimulator"),
            onServerRunning: { channel in
                ports.continuation.yield(channel.localAddress?.port ?? 0)
            },
            logger: logger)
        return (app, ports)
    }

    private static func environment(_ context: SimulatorContext) -> StoreEnvironment? {
        switch context.parameters.get("environment") {
        case "production": return .production
        case "sandbox": return .sandbox
        default: return nil
        }
    }

    /// Checks the bearer token and gives the route its environment, "now" and the token's bundle id.
    static func serverAPI(
        _ request: Request, _ context: SimulatorContext, _ state: SimulatorState,
        _ answer: (StoreEnvironment, Date, String?) -> SimulatorReply
    ) -> Response {
        guard let environment = environment(context) else { return reply(.empty(404)) }
        let now = Date()
        if let problem = SimulatedServerAPI.tokenProblem(
            authorization: request.headers[.authorization], store: state.store, now: now)
        {
            context.logger.debug("Bearer token rejected", metadata: ["reason": "\(problem)"])
            return reply(.empty(401))
        }
        let bundleID = SimulatedServerAPI.tokenBundleID(authorization: request.headers[.authorization])
        return reply(answer(environment, now, bundleID))
    }

    static func reply(_ reply: SimulatorReply) -> Response {
        var fields = HTTPFields()
        if let value = reply.headers["content-type"] { fields[.contentType] = value }
        if let value = reply.headers["retry-after"] { fields[.retryAfter] = value }
        return Response(
            status: HTTPResponse.Status(code: reply.status), headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: reply.body)))
    }
}

/// The simulator's shared, immutable-or-locked state.
final class SimulatorState: Sendable {
    let store: SimulatorStore
    let authority: SigningAuthority
    let faults: FaultInjector
    let log = SimulatorRequestLog()
    let maxHang: Duration
    private let shuttingDown = Mutex(false)

    init(
        seed: SimulatorSeed, faults: FaultPlan, authorityOptions: SigningAuthority.Options, maxHang: Duration
    ) throws(SimulatorError) {
        self.store = try SimulatorStore(seed)
        do {
            self.authority = try SigningAuthority(options: authorityOptions)
        } catch {
            throw .startFailed("the test certificate authority could not be built (\(error))")
        }
        self.faults = FaultInjector(faults)
        self.maxHang = maxHang
    }

    var isShuttingDown: Bool { shuttingDown.withLock { $0 } }

    func beginShutdown() {
        shuttingDown.withLock { $0 = true }
    }
}

/// A request context that keeps the connection's channel, so a fault can reset it.
struct SimulatorContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }
}

/// Logs every request and applies the fault plan before the routes see it.
struct SimulatorMiddleware: RouterMiddleware {
    typealias Context = SimulatorContext
    let state: SimulatorState

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        let query = request.uri.query.flatMap { $0.isEmpty ? nil : String($0) }
        let index = state.log.append(
            SimulatorRequest(
                method: request.method.rawValue, path: path, query: query, fault: nil, status: nil, receivedAt: Date()))
        let decision = state.faults.decide(path: path)
        var notes: [String] = []
        if decision.latencyMilliseconds > 0 {
            notes.append("latency \(decision.latencyMilliseconds) ms")
            // An event-loop timer is exact; `Task.sleep` may fire late by a share of the delay.
            let delay = TimeAmount.milliseconds(Int64(decision.latencyMilliseconds))
            try? await context.channel.eventLoop.scheduleTask(in: delay) {}.futureResult.get()
        }
        guard let fault = decision.terminal else {
            let response = try await next(request, context)
            state.log.complete(
                index, status: Int(response.status.code), fault: notes.isEmpty ? nil : notes.joined(separator: ", "))
            return response
        }
        notes.append(fault.description)
        let note = notes.joined(separator: ", ")
        let reply: SimulatorReply
        switch fault {
        case .latency:
            reply = SimulatorReply.empty(500)  // not reached: latency is never terminal
        case .verifyReceiptStatus(let status, let isRetryable):
            reply = SimulatedVerifyReceipt.status(status, isRetryable: isRetryable)
        case .httpStatus(let status, let errorCode):
            if let errorCode {
                reply = SimulatorReply.apiError(status, code: errorCode, message: "Simulated error.")
            } else {
                reply = SimulatorReply.empty(status)
            }
        case .tooManyRequests(let hint):
            var headers: [String: String] = [:]
            if let hint { headers["retry-after"] = hint.headerValue(now: Date()) }
            reply = SimulatorReply.apiError(429, code: 4_290_000, message: "Rate limit exceeded.", headers: headers)
        case .malformedJSON:
            reply = SimulatorReply(
                status: 200, headers: ["content-type": "application/json"],
                body: Data(#"{"status": 0, "receipt": {"in_app": [{"transaction_id": "#.utf8))
        case .connectionReset:
            state.log.complete(index, status: nil, fault: note)
            await Self.reset(context.channel)
            return AppStoreSimulator.reply(.empty(500))
        case .truncatedBody, .closedMidBody:
            state.log.complete(index, status: 200, fault: note)
            return Self.cutShort(chunked: fault == .closedMidBody)
        case .hang:
            state.log.complete(index, status: nil, fault: note)
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: state.maxHang)
            while !state.isShuttingDown, clock.now < deadline, context.channel.isActive {
                try? await Task.sleep(for: .milliseconds(10))
            }
            await Self.reset(context.channel)
            return AppStoreSimulator.reply(.empty(500))
        }
        state.log.complete(index, status: reply.status, fault: note)
        return AppStoreSimulator.reply(reply)
    }

    /// An answer whose body never arrives whole: the head says 200 (with the full length unless
    /// `chunked`), the first half of a JSON body is sent, then the body's writer fails and the
    /// server closes the connection.
    static func cutShort(chunked: Bool) -> Response {
        let full = ByteBuffer(
            string: #"{"status": 0, "environment": "Production", "receipt": {"bundle_id": "com.example.app", "#
                + #""in_app": []}, "signedTransactionInfo": "", "hasMore": false, "notificationHistory": []}"#)
        let half = full.getSlice(at: full.readerIndex, length: full.readableBytes / 2) ?? ByteBuffer()
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        if !chunked { fields[.contentLength] = String(full.readableBytes) }
        let body = ResponseBody(contentLength: chunked ? nil : full.readableBytes) { writer in
            try await writer.write(half)
            throw CutShort()
        }
        return Response(status: .ok, headers: fields, body: body)
    }

    /// Ends a ``cutShort(chunked:)`` body mid-way.
    struct CutShort: Error {}

    /// Closes the connection with a TCP reset (SO_LINGER 0), without an answer.
    static func reset(_ channel: any Channel) async {
        if let provider = channel as? any SocketOptionProvider {
            _ = try? await provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        }
        _ = try? await channel.close()
    }
}

/// Runs alongside the server and, on graceful shutdown (which reaches it first), releases held
/// requests so the server's own shutdown does not wait for them.
struct ShutdownRelay: Service {
    let state: SimulatorState

    func run() async throws {
        try? await gracefulShutdown()
        state.beginShutdown()
    }
}
