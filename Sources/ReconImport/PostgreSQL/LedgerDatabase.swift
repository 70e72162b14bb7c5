import AppleData
import Foundation
import Logging
import PostgresNIO
import ReconModel
import ReconStorage

/// An open, read-only view of the backend's PostgreSQL for one import (CONTRACT §1.7): one
/// `REPEATABLE READ READ ONLY` transaction, so every query reads the same snapshot and none can
/// write, and one server-side cursor per query, fetched in bounded batches (``fetchSize`` rows,
/// streamed by postgres-nio) as the store takes them.
///
/// ``open(_:logger:)`` connects, starts the transaction, declares every cursor (so a query the
/// server refuses fails before anything is written) and reads the first rows of the first query:
/// the caller opens its store only after that.
public final class LedgerDatabase {
    /// What is read; the password stays in here.
    public let source: DatabaseSource
    private let connection: PostgresConnection
    private let logger: Logger
    /// The first rows of the first query, read by ``open(_:logger:)``.
    private var prefetched: [PostgresRow]?

    /// Rows fetched per round trip: memory stays bounded whatever the result's size.
    package static let fetchSize = 5_000
    /// Rows of the first query read before the store is opened.
    package static let firstFetch = 100

    private init(source: DatabaseSource, connection: PostgresConnection, logger: Logger) {
        self.source = source
        self.connection = connection
        self.logger = logger
    }

    /// Connects, starts the snapshot, declares a cursor per query and reads the first rows.
    ///
    /// - Throws: ``DatabaseSourceError`` naming the server and PostgreSQL's message: unreachable,
    ///   login refused, TLS refused, a query refused. The connection is closed then.
    public static func open(_ source: DatabaseSource, logger: Logger) async throws(DatabaseSourceError)
        -> LedgerDatabase
    {
        let connection = try await connect(source, logger: logger)
        let database = LedgerDatabase(source: source, connection: connection, logger: logger)
        do throws(DatabaseSourceError) {
            try await database.start()
        } catch {
            await database.close()
            throw error
        }
        return database
    }

    /// A connection to `source`'s server, logged in, with its reads guarded (``ReadCompleteGuard``).
    ///
    /// - Throws: ``DatabaseSourceError/connect(server:message:)``.
    package static func connect(_ source: DatabaseSource, logger: Logger) async throws(DatabaseSourceError)
        -> PostgresConnection
    {
        try await PostgresConnector(source, logger: logger).connect()
    }

    /// The transaction, the cursors, and the first rows of the first query.
    private func start() async throws(DatabaseSourceError) {
        do {
            try await connection.query("BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
        } catch {
            throw .connect(server: source.name, message: DatabaseSourceError.message(error, tls: source.tls))
        }
        for index in source.queries.indices {
            let declare = "DECLARE \(cursor(index)) NO SCROLL CURSOR FOR \(source.queries[index].sql)"
            do {
                try await connection.query(PostgresQuery(unsafeSQL: declare), logger: logger)
            } catch {
                throw failure(error, query: index)
            }
        }
        guard !source.queries.isEmpty else { return }
        do {
            let fetch = "FETCH FORWARD \(Self.firstFetch) FROM \(cursor(0))"
            prefetched = try await ClosedConnectionGuard.collect(fetch, on: connection, logger: logger)
        } catch {
            throw failure(error, query: 0)
        }
    }

    /// Hands every row of query `index` to `body`, in the result's order, a batch at a time.
    ///
    /// - Throws: ``DatabaseSourceError`` when the query fails or the connection is lost; whatever
    ///   `body` throws.
    package func forEachRow(ofQuery index: Int, _ body: (PostgresRow) async throws -> Void) async throws {
        try await forEachBatch(ofQuery: index) { rows in
            for row in rows { try await body(row) }
        }
    }

    /// Hands every batch of rows of query `index` to `body`, in the result's order, while the next
    /// batch is fetched: the server sends batch n + 1 while the caller works on batch n.
    ///
    /// - Throws: ``DatabaseSourceError`` when the query fails or the connection is lost; whatever
    ///   `body` throws.
    package func forEachBatch(ofQuery index: Int, _ body: ([PostgresRow]) async throws -> Void) async throws {
        var rows: [PostgresRow]
        var full: Int
        if index == 0, let first = prefetched {
            prefetched = nil
            rows = first
            full = Self.firstFetch
        } else {
            rows = try await fetch(ofQuery: index)
            full = Self.fetchSize
        }
        while rows.count >= full {
            // One batch is read whole, then handed over: the server's cursor holds the rest, so
            // memory stays at two batches (the one handed over, the one arriving), and a
            // connection lost while the store writes is seen by that fetch.
            guard !connection.isClosed else {
                throw DatabaseSourceError.lost(server: source.name, message: "the connection was closed")
            }
            let name = cursor(index)
            let connection = connection
            let logger = logger
            async let next = Self.collect(name, connection: connection, logger: logger)
            try await body(rows)
            do {
                rows = try await next
            } catch {
                throw failure(error, query: index)
            }
            full = Self.fetchSize
        }
        try await body(rows)
    }

    /// The next batch of query `index`, read whole.
    private func fetch(ofQuery index: Int) async throws(DatabaseSourceError) -> [PostgresRow] {
        guard !connection.isClosed else {
            throw DatabaseSourceError.lost(server: source.name, message: "the connection was closed")
        }
        do {
            return try await Self.collect(cursor(index), connection: connection, logger: logger)
        } catch {
            throw failure(error, query: index)
        }
    }

    /// `FETCH FORWARD` ``fetchSize`` rows from `cursor`, read whole; fails once the connection closes.
    private static func collect(_ cursor: String, connection: PostgresConnection, logger: Logger) async throws
        -> [PostgresRow]
    {
        try await ClosedConnectionGuard.collect(
            "FETCH FORWARD \(fetchSize) FROM \(cursor)", on: connection, logger: logger)
    }

    /// Ends the transaction (nothing was written) and the connection.
    public func close() async {
        try? await connection.close()
    }

    private func cursor(_ index: Int) -> String { "iap_recon_\(index + 1)" }

    private func failure(_ error: any Error, query index: Int) -> DatabaseSourceError {
        let message = DatabaseSourceError.message(error, tls: source.tls)
        if DatabaseSourceError.isConnectionLoss(error) { return .lost(server: source.name, message: message) }
        return .query(source: source.sourceName(source.queries[index].kind), message: message)
    }

}

@available(*, unavailable)
extension LedgerDatabase: Sendable {}
