import Foundation
import IAPReconTestSupport
import Logging
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// The support lookup answers "was this customer charged, and did they get it?" first.
@Suite struct LookupTests {
    let dir = TemporaryDirectory("lookup")
    let logger = Logger.quiet
    static let t0: Int64 = 1_795_000_000_000  // 2026-11-18T09:46:40Z

    /// The support desk's store; u9's receipt took Apple three tries.
    func makeStore() async throws -> ReconConfig {
        try await SupportDeskStore.build(in: dir, attemptsForU9: 3)
    }

    @Test func userWhoPaidAndGotNothing() async throws {
        let config = try await makeStore()
        let outcome = try await config.dependencies().lookup(.user("u9"), json: false)
        let text = outcome.lines.joined(separator: "\n") + "\n"
        #expect(
            text.hasPrefix(
                "user u9: charged for 1 purchase, delivered 0 of 1; NOT DELIVERED: t9; 1 open finding, worst MISSING_RECORD (critical)\n"
            ))
        if let mismatch = snapshotMismatch(text, named: "lookup-user-u9.txt") {
            Issue.record(Comment(rawValue: mismatch))
        }
    }

    @Test func refundedTransactionAsJSON() async throws {
        let config = try await makeStore()
        let outcome = try await config.dependencies().lookup(.transaction("t5"), json: true)
        let text = outcome.lines.joined(separator: "\n") + "\n"
        if let mismatch = snapshotMismatch(text, named: "lookup-transaction-t5.json") {
            Issue.record(Comment(rawValue: mismatch))
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["refunded"] as? Int == 1)
        #expect(object["charged"] as? Int == 1)
        #expect(object["delivered"] as? Int == 1)
    }

    @Test func unknownUserSaysSo() async throws {
        let config = try await makeStore()
        let outcome = try await config.dependencies().lookup(.user("nobody"), json: false)
        #expect(outcome.lines.first?.hasPrefix("user nobody: no purchases in the store") == true)
    }

    @Test func orderLookupWithoutCredentialsExplainsWhatIsNeeded() async throws {
        let config = try await makeStore()
        await #expect(throws: ConfigError.self) {
            try await config.dependencies().lookup(.order("MQ123", transactionIDs: []), json: false)
        }
    }
}
