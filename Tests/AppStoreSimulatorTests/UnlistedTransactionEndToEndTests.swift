import AppStoreSimulator
import Foundation
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

/// A row whose transaction a valid answer does not list (a finished consumable, a JWS for
/// another purchase) is settled by Get Transaction Info where credentials exist, never marked
/// invalid for that alone.
@Suite struct UnlistedTransactionEndToEndTests {
    @Test func getTransactionInfoSettlesTheUnlistedRow() async throws {
        try await withSimulator { simulator, transport in
            let client = try AppStoreServerAPIClient(
                key: SimFixture.apiKey(), endpoints: simulator.endpoints(requestTimeout: .seconds(20)),
                transport: transport, retryPolicy: SimFixture.fastPolicy(), rateLimiter: .unlimited())
            let trust = try TrustStore.apple.adding(der: simulator.rootCertificateDER)
            let stage = VerifyStage(
                verifyReceipt: nil, serverAPI: client, signedData: SignedDataVerifier(trust: trust), bundleIDs: [],
                concurrency: 1)
            let row = LedgerTransaction(
                recordID: "r1", userID: "u1", productID: "coins.100", transactionID: "1000",
                purchaseDate: 1_700_000_000_000, quantity: 2, verificationStatus: .pending, receiptID: "rc1")
            let job = VerifyStage.WorkUnit(
                receipt: UploadedReceipt(receiptID: "rc1", format: .signedTransaction, data: "unused"),
                check: ReceiptCheck(
                    failure: nil, environment: .production, bundleID: SimFixture.bundleID, signature: .verified,
                    transactionIDs: ["another"]),
                rows: [row])
            let records = await stage.verify(job)
            #expect(records.contains { $0.recordIDs == ["r1"] && $0.outcome == .valid && $0.source == .serverAPI })
            #expect(!records.contains { $0.outcome == .invalid })
            #expect(simulator.requestLog.requests.contains { $0.path.hasSuffix("inApps/v1/transactions/1000") })
        }
    }
}
