import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ReconModel

/// The production ``HTTPTransport``: one shared AsyncHTTPClient `HTTPClient` for every request.
///
/// Create one per run, share it between the clients, and shut it down once at the end, either
/// with ``shutdown()`` or by scoping it with ``withTransport(configuration:_:)``. Redirects are
/// not followed; connection establishment is not retried inside the HTTP client, because the
/// clients' ``RetryPolicy`` is the one place that decides about retries.
public final class AsyncHTTPTransport: HTTPTransport {
    /// Sizing and limits of the underlying HTTP client.
    public struct Configuration: Sendable, Hashable {
        /// Most simultaneous HTTP/1 connections per host (match the clients' concurrency).
        public var maxConnectionsPerHost: Int
        /// Limit for establishing a connection.
        public var connectTimeout: Duration
        /// Limit for the gap between two reads of one response (the body included).
        public var readTimeout: Duration
        /// Largest response body accepted.
        public var maxResponseBytes: Int

        /// The longest a connection may take to open, whatever the request timeout.
        public static let connectTimeoutLimit: Duration = .seconds(10)

        /// Creates a configuration; the defaults are those ``matching(_:)`` ``AppStoreEndpoints/apple``.
        public init(
            maxConnectionsPerHost: Int = AppStoreEndpoints.apple.concurrency,
            connectTimeout: Duration = min(Configuration.connectTimeoutLimit, AppStoreEndpoints.apple.requestTimeout),
            readTimeout: Duration = AppStoreEndpoints.apple.requestTimeout, maxResponseBytes: Int = 16 << 20
        ) {
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.connectTimeout = connectTimeout
            self.readTimeout = readTimeout
            self.maxResponseBytes = maxResponseBytes
        }

        /// A configuration sized for `endpoints` (connections = concurrency, read timeout =
        /// request timeout).
        public static func matching(_ endpoints: AppStoreEndpoints) -> Configuration {
            Configuration(
                maxConnectionsPerHost: endpoints.concurrency,
                connectTimeout: min(connectTimeoutLimit, endpoints.requestTimeout),
                readTimeout: endpoints.requestTimeout
            )
        }
    }

    private let client: HTTPClient
    private let configuration: Configuration

    /// Creates a transport with its own `HTTPClient` on the process-wide event loop group.
    ///
    /// Call ``shutdown()`` exactly once when done.
    public init(configuration: Configuration = Configuration()) {
        var config = HTTPClient.Configuration()
        config.redirectConfiguration = .disallow
        config.timeout = .init(
            connect: Self.timeAmount(configuration.connectTimeout),
            read: Self.timeAmount(configuration.readTimeout)
        )
        var pool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: .seconds(60),
            concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, configuration.maxConnectionsPerHost)
        )
        pool.retryConnectionEstablishment = false
        config.connectionPool = pool
        config.decompression = .disabled
        self.client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: config)
        self.configuration = configuration
    }

    /// Runs `body` with a fresh transport and shuts the transport down afterwards, also when
    /// `body` throws.
    public static func withTransport<Result: Sendable>(
        configuration: Configuration = Configuration(),
        _ body: (AsyncHTTPTransport) async throws -> Result
    ) async throws -> Result {
        let transport = AsyncHTTPTransport(configuration: configuration)
        let result: Result
        do {
            result = try await body(transport)
        } catch {
            try? await transport.shutdown()
            throw error
        }
        try await transport.shutdown()
        return result
    }

    /// Closes every connection and releases the client.
    ///
    /// Call once, after the last request.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    public func send(_ request: AppleHTTPRequest, timeout: Duration) async throws -> AppleHTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        switch request.method {
        case .get: outgoing.method = .GET
        case .post: outgoing.method = .POST
        case .put: outgoing.method = .PUT
        }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            outgoing.headers.add(name: name, value: value)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let response = try await client.execute(outgoing, timeout: Self.timeAmount(timeout))
            var buffer = try await response.body.collect(upTo: configuration.maxResponseBytes)
            let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
            var headers: [String: String] = [:]
            for (name, value) in response.headers {
                let key = name.lowercased()
                if let existing = headers[key] {
                    headers[key] = existing + ", " + value
                } else {
                    headers[key] = value
                }
            }
            return AppleHTTPResponse(status: Int(response.status.code), headers: headers, body: Data(bytes))
        } catch {
            throw Self.classify(error, limit: configuration.maxResponseBytes)
        }
    }

    /// Maps AsyncHTTPClient and NIO errors onto ``TransportError``.
    package static func classify(_ error: any Error, limit: Int) -> TransportError {
        if let transport = error as? TransportError { return transport }
        if let httpError = error as? HTTPClientError {
            switch httpError {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .getConnectionFromPoolTimeout,
                .tlsHandshakeTimeout:
                return .timedOut
            case .remoteConnectionClosed, .cancelled:
                return .connectionReset
            default:
                return .connectionFailed(String(describing: httpError))
            }
        }
        if error is NIOTooManyBytesError { return .responseTooLarge(limit: limit) }
        if let ioError = error as? IOError { return classify(errno: ioError.errnoCode) }
        if let connectionError = error as? NIOConnectionError {
            let codes = connectionError.connectionErrors.compactMap { ($0.error as? IOError)?.errnoCode }
            if codes.contains(ECONNREFUSED) { return .connectionRefused }
            if let first = codes.first { return classify(errno: first) }
            return .connectionFailed("could not connect to \(connectionError.host):\(connectionError.port)")
        }
        if let channelError = error as? ChannelError {
            switch channelError {
            case .connectTimeout: return .timedOut
            case .ioOnClosedChannel, .eof, .alreadyClosed, .outputClosed, .inputClosed: return .connectionReset
            default: return .connectionFailed(String(describing: channelError))
            }
        }
        if error is CancellationError { return .connectionFailed("cancelled") }
        return .connectionFailed(String(describing: type(of: error)))
    }

    private static func classify(errno code: Int32) -> TransportError {
        switch code {
        case ECONNREFUSED: return .connectionRefused
        case ECONNRESET, EPIPE, ECONNABORTED: return .connectionReset
        case ETIMEDOUT: return .timedOut
        default: return .connectionFailed("system error \(code)")
        }
    }

    package static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        let nanos = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if nanos.overflow { return .nanoseconds(Int64.max) }
        return .nanoseconds(max(0, nanos.partialValue + attoseconds / 1_000_000_000))
    }
}
