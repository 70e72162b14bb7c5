import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import ReconModel

/// Opens a logged-in connection to a ``DatabaseSource``'s server.
///
/// The server is the backend's PostgreSQL as an input, or the store's own database. TLS is as `sslmode` and
/// `sslrootcert` say; the password never leaves the configuration.
package struct PostgresConnector {
    package let source: DatabaseSource
    package let logger: Logger

    /// How long a connection attempt may take.
    package static let connectTimeout = TimeAmount.seconds(10)

    package init(_ source: DatabaseSource, logger: Logger) {
        self.source = source
        self.logger = logger
    }

    /// A connection, logged in, with its reads guarded (``ReadCompleteGuard``).
    ///
    /// - Throws: ``DatabaseSourceError/connect(server:message:)``.
    package func connect() async throws(DatabaseSourceError) -> PostgresConnection {
        do {
            return try await connectFuture().get()
        } catch {
            throw .connect(server: source.name, message: DatabaseSourceError.message(error, tls: source.tls))
        }
    }

    /// ``connect()`` for a caller that waits on a thread of its own: nothing in it needs a task to run.
    ///
    /// - Throws: ``DatabaseSourceError/connect(server:message:)``.
    package func connectWaiting() throws(DatabaseSourceError) -> PostgresConnection {
        do {
            return try connectFuture().wait()
        } catch {
            throw .connect(server: source.name, message: DatabaseSourceError.message(error, tls: source.tls))
        }
    }

    /// The connection as a future: the channel is opened here, not by the client library, so that a
    /// ``ReadCompleteGuard`` can sit in it once the login is done.
    private func connectFuture() -> EventLoopFuture<PostgresConnection> {
        let group = PostgresConnection.defaultEventLoopGroup
        let tls: PostgresConnection.Configuration.TLS
        do {
            tls = try Self.tls(source)
        } catch {
            return group.any().makeFailedFuture(error)
        }
        let source = self.source
        let logger = self.logger
        return ClientBootstrap(group: group)
            .connectTimeout(Self.connectTimeout)
            .connect(host: source.host, port: source.port)
            .flatMap { channel in
                var configuration = PostgresConnection.Configuration(
                    establishedChannel: channel, tls: tls, username: source.user, password: source.password,
                    database: source.database)
                configuration.options.connectTimeout = Self.connectTimeout
                configuration.options.additionalStartupParameters = [("application_name", "iap-recon")]
                // SNI and the certificate's name check use the host name (never an address), as when
                // the client library opens the channel itself.
                if !Self.isIPAddress(source.host) { configuration.options.tlsServerName = source.host }
                return PostgresConnection.connect(
                    on: channel.eventLoop, configuration: configuration, id: 1, logger: logger
                )
                .flatMap { connection in
                    Self.guardReads(channel).map { connection }
                }
                .flatMapErrorThrowing { error in
                    channel.close(promise: nil)
                    throw error
                }
            }
    }

    /// Puts a ``ReadCompleteGuard`` just below the client library: above TLS when there is TLS,
    /// else next to the socket.
    private static func guardReads(_ channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            if let tlsHandler = try? pipeline.handler(type: NIOSSLClientHandler.self) {
                try pipeline.addHandler(ReadCompleteGuard(), position: .after(tlsHandler))
            } else {
                try pipeline.addHandler(ReadCompleteGuard(), position: .first)
            }
        }
    }

    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    private static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// The TLS settings of `sslmode` (and `sslrootcert`).
    private static func tls(_ source: DatabaseSource) throws -> PostgresConnection.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let roots = source.rootCertificates { configuration.trustRoots = .file(roots) }
        switch source.tls {
        case .disable: return .disable
        case .prefer:
            configuration.certificateVerification = .none
            return .prefer(try NIOSSLContext(configuration: configuration))
        case .require:
            configuration.certificateVerification = .none
            return .require(try NIOSSLContext(configuration: configuration))
        case .verifyCA:
            configuration.certificateVerification = .noHostnameVerification
            return .require(try NIOSSLContext(configuration: configuration))
        case .verifyFull:
            configuration.certificateVerification = .fullVerification
            return .require(try NIOSSLContext(configuration: configuration))
        }
    }
}
