import Foundation
import IAPReconTestSupport
import Testing

@testable import IAPRecon
@testable import ReconModel
@testable import ReconStorage

extension PostgresTests {
    /// Apple's word as of 2026 with the store in PostgreSQL: the same findings, `consumption_requests.csv` and
    /// `commitments.csv` as an SQLite store gives, byte for byte.
    @Suite struct AppleWord {
        @Test func theSameReportsAsAnSQLiteStore() async throws {
            let server = try PostgresServer.require()
            try server.psql("DROP DATABASE IF EXISTS appleword; CREATE DATABASE appleword;")
            let cases = AppleWordStoreTests()
            try await cases.importAll()
            _ = try await cases.config().dependencies(at: AppleWordStoreTests.asOf).report()
            let url = server.url(database: "appleword")
            try await cases.importAll(store: url)
            _ = try await cases.config(store: url, out: "pg").dependencies(at: AppleWordStoreTests.asOf).report()
            for name in ["discrepancies.csv", "consumption_requests.csv", "commitments.csv", "revenue_daily.csv"] {
                #expect(try cases.dir.read("pg/" + name) == (try cases.dir.read("out/" + name)), "\(name)")
            }
            let lookup = try await cases.config(store: url).dependencies(opening: .readOnly)
                .lookup(.appTransaction("app-7"), json: true)
            let sqlite = try await cases.config().dependencies(opening: .readOnly)
                .lookup(.appTransaction("app-7"), json: true)
            #expect(lookup.lines == sqlite.lines)
        }
    }
}
