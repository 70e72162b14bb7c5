import Foundation
import IAPReconTestSupport
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

/// The support timeline states what Apple said, and only what authentic evidence says.
@Suite struct LookupAppleTruthTests {
    let dir = TemporaryDirectory("lookup-apple")
    static let t0: Int64 = 1_795_000_000_000  // 2026-11-18T09:46:40Z

    /// u7's purchase was revoked by Family Sharing (Apple's `FAMILY_REVOKE`); u8 uploaded a receipt whose signature
    /// failed, claiming a cancellation.
    ///
    /// Neither receipt has `received_at`.
    func makeStore() async throws -> ReconConfig {
        let t0 = Self.t0
        let ledger = """
            record_id,user_id,product_id,transaction_id,purchase_date,price,currency,verification_status,delivered_at,finished_at,receipt_id
            r7,u7,premium,t7,\(t0),9.99,USD,verified,\(t0 + 2_000),\(t0 + 3_000),rc7
            r8,u8,premium,t8,\(t0),9.99,USD,verified,\(t0 + 2_000),\(t0 + 3_000),rc8

            """
        let receipts = """
            {"receipt_id":"rc7","user_id":"u7","format":"app-receipt","data":"AAAA"}
            {"receipt_id":"rc8","user_id":"u8","format":"app-receipt","data":"BBBB"}

            """
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        config.bundleIDs = ["com.example.app"]
        _ = try await config.dependencies(at: t0 + 10_000).importFiles(
            ImportRequest(
                transactions: [try dir.write("t.csv", ledger)], receipts: [try dir.write("r.jsonl", receipts)]))
        let store = try ReconStore(path: config.databasePath)
        try store.receipts.recordVerification(
            VerificationRecord(
                recordIDs: ["r7"], transactionID: "t7", source: .serverAPI, httpStatus: 200,
                environment: .production, bundleID: "com.example.app", outcome: .valid, attempts: 1,
                entries: [
                    EvidenceEntry(
                        transactionID: "t7", originalTransactionID: "t7", productID: "premium", quantity: 1,
                        purchaseDate: t0, cancellationDate: t0 + 86_400_000, revocationType: "FAMILY_REVOKE",
                        environment: .production, bundleID: "com.example.app", inAppOwnershipType: "FAMILY_SHARED",
                        signedDate: t0 + 86_400_000)
                ], signature: .verified), runID: nil, at: t0 + 90_000_000, learnedAt: t0 + 90_000_000)
        try store.receipts.recordVerification(
            VerificationRecord(
                recordIDs: [], receiptID: "rc8", transactionID: "t8", source: .offline, environment: .production,
                bundleID: "com.example.app", outcome: .invalid, attempts: 1,
                entries: [
                    EvidenceEntry(
                        transactionID: "t8", originalTransactionID: "t8", productID: "premium", quantity: 1,
                        purchaseDate: t0, cancellationDate: t0 + 86_400_000)
                ], signature: .invalid), runID: nil, at: t0 + 90_000_000, learnedAt: t0 + 90_000_000)
        return config
    }

    @Test func familyRevokeIsARevocationNotARefund() async throws {
        let config = try await makeStore()
        let text = try await config.dependencies().lookup(.user("u7"), json: false).lines
            .joined(separator: "\n")
        #expect(text.contains("Apple revoked (Family Sharing) transaction t7"))
        #expect(!text.contains("Apple refunded"))
        #expect(!text.contains("refunded;") && !text.contains("1 refunded"))
    }

    @Test func aForgedReceiptsCancellationIsNotARefund() async throws {
        let config = try await makeStore()
        let text = try await config.dependencies().lookup(.user("u8"), json: false).lines
            .joined(separator: "\n")
        #expect(!text.contains("Apple refunded"))
    }

    @Test func aReceiptWithoutReceivedAtIsPlacedAtItsImportTime() async throws {
        let config = try await makeStore()
        let text = try await config.dependencies().lookup(.user("u7"), json: false).lines
            .joined(separator: "\n")
        #expect(!text.contains("1970-01-01"))
        #expect(text.contains(Timestamp.iso(Self.t0 + 10_000)))
    }
}
