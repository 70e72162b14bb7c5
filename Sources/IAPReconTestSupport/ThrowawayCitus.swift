import Foundation

/// A Citus cluster of its own for tests: a coordinator and two workers, each a ``ThrowawayPostgres`` on a free
/// loopback port with the `citus` library preloaded, one password (SCRAM) for all three.
///
/// Citus connects from node to node as the client's role; the nodes find the password in `pg_dist_authinfo`
/// ([Citus: node authentication](https://docs.citusdata.com/en/stable/admin_guide/cluster_management.html)),
/// set in each database ``createDatabase(_:)`` makes. Stopped with ``destroy()`` (and, as a safety net, when the
/// process exits).
public final class ThrowawayCitus: @unchecked Sendable {
    /// The coordinator: the store's URL points at it.
    public let coordinator: ThrowawayPostgres
    /// The two workers, which hold the shards.
    public let workers: [ThrowawayPostgres]

    /// The server settings Citus needs: its library loaded at start, and two-phase commits between the nodes.
    static let settings = [
        "shared_preload_libraries=citus", "max_prepared_transactions=100", "wal_level=logical",
        "max_connections=200", "citus.shard_count=8",
    ]

    /// Starts three servers; fails naming what to install when Citus is not in PostgreSQL's library folder.
    ///
    /// - Throws: ``ThrowawayPostgres/StartError``.
    public init() throws {
        guard Self.isInstalled else {
            throw ThrowawayPostgres.StartError(
                description: "Citus is not installed into PostgreSQL (no citus.so): run `make citus`")
        }
        let password = "pw-" + UUID().uuidString.prefix(12).lowercased()
        coordinator = try ThrowawayPostgres(password: password, settings: Self.settings)
        var workers: [ThrowawayPostgres] = []
        do {
            for _ in 0..<2 { workers.append(try ThrowawayPostgres(password: password, settings: Self.settings)) }
        } catch {
            coordinator.destroy()
            for worker in workers { worker.destroy() }
            throw error
        }
        self.workers = workers
    }

    /// Whether the `citus` extension's library is in an installed PostgreSQL's library folder.
    public static var isInstalled: Bool {
        guard let binaries = ThrowawayPostgres.findBinaries() else { return false }
        let library = (binaries as NSString).deletingLastPathComponent + "/lib/citus.so"
        return FileManager.default.fileExists(atPath: library)
    }

    /// Makes database `name` on all three nodes with the extension, the password the nodes connect with, and the
    /// workers registered with the coordinator (dropped first when it exists); returns the coordinator's URL of it.
    ///
    /// - Parameter extensionInstalled: false leaves the database a plain PostgreSQL one on the coordinator (no
    ///   extension, no workers), to be made a cluster later by ``addCitus(to:)``.
    @discardableResult
    public func createDatabase(_ name: String, extensionInstalled: Bool = true) throws -> String {
        for node in [coordinator] + workers {
            try node.psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            try node.psql("CREATE DATABASE \(name)")
        }
        if extensionInstalled { try addCitus(to: name) }
        return coordinator.url(database: name)
    }

    /// Installs the extension into database `name` on every node and registers the workers.
    public func addCitus(to name: String) throws {
        for node in [coordinator] + workers {
            try node.psql(
                """
                CREATE EXTENSION IF NOT EXISTS citus;
                INSERT INTO pg_dist_authinfo (nodeid, rolename, authinfo)
                    VALUES (0, '\(coordinator.user)', 'password=\(coordinator.password)') ON CONFLICT DO NOTHING;
                """, database: name)
        }
        try coordinator.psql(
            """
            SELECT citus_set_coordinator_host('127.0.0.1', \(coordinator.port));
            \(workers.map { "SELECT citus_add_node('127.0.0.1', \($0.port));" }.joined(separator: "\n"))
            """, database: name)
    }

    /// Runs SQL on the coordinator (``ThrowawayPostgres/psql(_:database:)``).
    @discardableResult
    public func psql(_ sql: String, database: String) throws -> String {
        try coordinator.psql(sql, database: database)
    }

    /// Stops the three servers and removes their folders.
    public func destroy() {
        coordinator.destroy()
        for worker in workers { worker.destroy() }
    }
}
