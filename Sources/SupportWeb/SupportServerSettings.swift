import Foundation
import IAPRecon
import Logging

/// How `iap-recon serve` listens and what it guards with.
public struct SupportServerSettings: Sendable {
    /// The store, the bundle ids and Apple's endpoints (for order-id lookups), validated.
    public var recon: ReconSettings
    /// The clock of each request's composition root.
    public var clock: any ReconClock
    /// Bind address; loopback by default.
    public var host: String
    /// Port; 0 picks a free one (announced on start).
    public var port: Int
    /// The shared secret every request must carry; required off loopback.
    public var token: String?
    /// The connection kept for a store in PostgreSQL (``withDependencies(logger:_:)``).
    let session = StoreSession()

    /// The environment variable holding the token.
    public static let tokenVariable = ReconConfig.serveTokenVariable
    /// The shortest token accepted.
    public static let minimumTokenLength = 16

    public init(
        recon: ReconSettings, clock: any ReconClock = SystemClock(), host: String = "127.0.0.1", port: Int = 8080,
        token: String? = nil
    ) {
        self.recon = recon
        self.clock = clock
        self.host = host
        self.port = port
        self.token = token
    }

    /// True for an address only this machine can reach (127.0.0.0/8, ::1, localhost); a name
    /// that merely starts with "127." is not one.
    public var isLoopback: Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
        return octets.count == 4 && octets.allSatisfy { $0 != nil } && octets[0] == 127
    }

    /// The composition root for one request: the store opened read-only, anew, so the answer
    /// is the latest state a nightly run has committed.
    ///
    /// - Throws: ``StoreError`` (``StoreError/noStore(path:)`` when there is none).
    public func dependencies(logger: Logger) throws -> ReconDependencies {
        try ReconDependencies(settings: recon, clock: clock, logger: logger, opening: .readOnly)
    }

    /// Refuses settings that would expose customer data: another address without a token.
    ///
    /// - Throws: ``ServeError``.
    public func validate() throws(ServeError) {
        if let token {
            guard token.count >= Self.minimumTokenLength else { throw .weakToken(minimum: Self.minimumTokenLength) }
        } else if !isLoopback {
            throw .tokenRequired(host: host)
        }
    }
}
