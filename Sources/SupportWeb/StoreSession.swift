import Foundation
import IAPRecon
import Logging

/// The store connections a `serve` process keeps when the store is in PostgreSQL: each opened (and its schema
/// checked) once, then lent to one request at a time, so that a lookup is its own few statements, not a login, the
/// schema's checks and the session's settings each time.
///
/// Up to ``limit`` are kept, so that as many lookups run at once as the machine has cores to run them (one connection
/// would make a process answer one lookup at a time, each waiting on its round trips). Each lookup still reads in a
/// transaction of its own, so it sees what the nightly run last committed. A request that fails on the store (a lost
/// server among others) closes its connection; the next one connects again. A store in a file is opened per request,
/// as SQLite opens a file in microseconds.
actor StoreSession {
    /// The dependencies lent out; `@unchecked`: only the request holding the lease uses them.
    final class Lease: @unchecked Sendable {
        let dependencies: ReconDependencies
        init(_ dependencies: ReconDependencies) { self.dependencies = dependencies }
    }

    /// How many connections a process keeps at most.
    let limit: Int
    private var idle: [Lease] = []
    private var opened = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int = max(2, ProcessInfo.processInfo.activeProcessorCount * 2)) {
        self.limit = limit
    }

    /// Waits for a connection, opening one when none is idle and fewer than ``limit`` are open.
    func take(opening open: @Sendable () throws -> ReconDependencies) async throws -> Lease {
        while idle.isEmpty, opened >= limit { await withCheckedContinuation { waiting.append($0) } }
        if let lease = idle.popLast() { return lease }
        opened += 1
        do {
            return Lease(try open())
        } catch {
            opened -= 1
            wakeOne()
            throw error
        }
    }

    /// Gives a connection back; `failed` closes it (the next request connects again).
    func handBack(_ lease: Lease, failed: Bool) {
        if failed { opened -= 1 } else { idle.append(lease) }
        wakeOne()
    }

    private func wakeOne() {
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
            await session.handBack(lease, failed: false)
            return result
        } catch {
            await session.handBack(lease, failed: error is StoreError)
            throw error
        }
    }
}
