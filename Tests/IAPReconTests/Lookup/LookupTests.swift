import Foundation
import IAPReconTestSupport
import Logging
import Testing

@testable import IAPRecon

/// The support lookup answers "was this customer charged, and did they get it?" first.
@Suite struct LookupTests {
    let dir = TemporaryDirectory("lookup")
    let logger = Logger.quiet
    static let t0: Int64 = 1_795_000_000_000  // 2026-11-18T09:46:40Z

    /// u5 bought premium, got it, was refunded; u9 uploaded a receipt Apple confirms for a
    /// purchase the ledger never recorded.
    func makeStore() async throws -> ReconConfig {
        let t0 = Self.t0
        let ledger = """
            record_id,user_id,product_id,transaction_id,purchase_date,price,currency,verification_status,delivered_at,finished_at,receipt_id
            r5,u5,premium,t5,\(t0),9.99,USD,verified,\(t0 + 2_000),\(t0 + 3_000),rc5

            """
        let receipts = """
            {"receipt_id":"rc5","user_id":"u5","received_at":\(t0 + 1_000),"format":"app-receipt","data":"AAAA"}
            {"receipt_id":"rc9","user_id":"u9","received_at":\(t0 + 60_000),"format":"app-receipt","data":"BBBB","claimed_environment":"Production"}

            """
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        config.bundleIDs = ["com.example.app"]
        _ = try await config.dependencies(at: t0).importFiles(
            ImportRequest(
                transactions: [try dir.write("t.csv", ledger)], receipts: [try dir.write("r.jsonl", receipts)]))
        let store = try ReconStore(path: config.databasePath)
        try store.recordVerification(
            VerificationRecord(
                recordIDs: ["r5"], receiptID: "rc5", transactionID: "t5", source: .verifyReceipt,
                endpoint: "http://127.0.0.1/production/verifyReceipt", httpStatus: 200, appleStatus: 0,
                environment: .production, bundleID: "com.example.app", outcome: .valid, attempts: 1,
                entries: [
                    EvidenceEntry(
                        transactionID: "t5", originalTransactionID: "t5", productID: "premium", quantity: 1,
                        purchaseDate: t0, cancellationDate: t0 + 86_400_000)
                ]), runID: nil, at: t0 + 90_000_000)
        try store.recordVerification(
            VerificationRecord(
                recordIDs: [], receiptID: "rc9", transactionID: nil, source: .verifyReceipt,
                endpoint: "http://127.0.0.1/production/verifyReceipt", httpStatus: 200, appleStatus: 0,
                environment: .production, bundleID: "com.example.app", outcome: .valid, attempts: 3,
                entries: [
                    EvidenceEntry(
                        transactionID: "t9", originalTransactionID: "t9", productID: "premium", quantity: 1,
                        purchaseDate: t0 + 50_000)
                ]),
            runID: nil, at: t0 + 90_000_000)
        _ = try await config.dependencies(at: t0 + 100_000_000).report()
        return config
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
