import Foundation
import IAPReconTestSupport
import Testing

/// The PostgreSQL server of the suite it marks: one new cluster started before the suite's first
/// test and stopped after its last, also when a test fails.
struct PostgresServerTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try ThrowawayPostgres()
        defer { server.destroy() }
        try await PostgresServer.$current.withValue(server) { try await function() }
    }
}

extension Trait where Self == PostgresServerTrait {
    /// Runs the suite against a throwaway PostgreSQL server (``PostgresServer/current``).
    static var postgresServer: Self { Self() }
}

/// The running server of the current suite.
enum PostgresServer {
    @TaskLocal static var current: ThrowawayPostgres?

    /// The server, or a failed test when the suite has none.
    static func require() throws -> ThrowawayPostgres {
        try #require(current, "the suite needs the .postgresServer trait")
    }
}

/// Every test that reads a real PostgreSQL, against one server.
@Suite(.serialized, .postgresServer) struct PostgresTests {}
