import Foundation
import IAPRecon
import Logging

/// The store connection a `serve` process keeps when the store is in PostgreSQL: opened (and its schema checked) once,
/// then lent to one request at a time, so that a lookup is its own few statements, not a login, the schema's checks and
/// the session's settings each time.
///
/// Each lookup still reads in a transaction of its own, so it sees what the nightly run last committed. A request that
/// fails on the store (a lost server among others) closes the connection; the next one connects again. A store in a
/// file is opened per request, as SQLite opens a file in microseconds.
actor StoreSession {
    /// The dependencies lent out; `@unchecked`: only the request holding the lease uses them.
    final class Lease: @unchecked Sendable {
        let dependencies: ReconDependencies
        init(_ dependencies: ReconDependencies) { self.dependencies = dependencies }
    }

    private var kept: Lease?
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Waits for the connection, opening it when none is kept.
    func take(opening open: @Sendable () throws -> ReconDependencies) async throws -> Lease {
        while busy { await withCheckedContinuation { waiting.append($0) } }
        busy = true
        if let kept { return kept }
        do {
            let lease = Lease(try open())
            kept = lease
            return lease
        } catch {
            handBack(failed: true)
            throw error
        }
    }

    /// Gives the connection back; `failed` closes it (the next request connects again).
    func handBack(failed: Bool) {
        if failed { kept = nil }
        busy = false
        if !waiting.isEmpty { waiting.removeFirst().resume() }
    }
}

extension SupportServerSettings {
    /// Runs `body` with the composition root of one request: the kept PostgreSQL connection (``StoreSession``), or
    /// the store file opened read-only anew.
    func withDependencies<T: Sendable>(
        logger: Logger, _ body: @Sendable (ReconDependencies) async throws -> T
    ) async throws -> T {
        guard DatabaseSource.isURL(recon.databasePath) else { return try await body(dependencies(logger: logger)) }
        let settings = self
        let lease = try await session.take { try settings.dependencies(logger: logger) }
        do {
            let result = try await body(lease.dependencies)
            await session.handBack(failed: false)
            return result
        } catch {
            await session.handBack(failed: error is StoreError)
            throw error
        }
    }
}
