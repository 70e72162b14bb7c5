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

/// A valid answer that does not list a row's transaction does not make the row invalid: Apple
/// leaves finished consumables out of the app receipt, and a JWS may be for another purchase.
@Suite struct UnlistedTransactionTests {
    static func stage() -> VerifyStage {
        VerifyStage(
            verifyReceipt: nil, serverAPI: nil, signedData: SignedDataVerifier(trust: .apple), bundleIDs: [],
            concurrency: 1)
    }

    static func row(_ id: String, tx: String) -> LedgerTransaction {
        LedgerTransaction(
            recordID: id, userID: "u1", productID: "coins", transactionID: tx, purchaseDate: 1_794_900_000_000,
            quantity: 1, environment: .production, price: Money(milliunits: 990, currency: "USD"),
            verificationStatus: .pending, receiptID: "rc1")
    }

    @Test func aJWSForAnotherTransactionLeavesTheRowPendingWithoutCredentials() async {
        let job = VerifyStage.WorkUnit(
            receipt: UploadedReceipt(receiptID: "rc1", format: .signedTransaction, data: "unused"),
            check: ReceiptCheck(
                failure: nil, environment: .production, bundleID: "com.example.app", signature: .verified,
                transactionIDs: ["t-listed"]),
            rows: [Self.row("r1", tx: "t-listed"), Self.row("r2", tx: "t-other")])
        let records = await Self.stage().verify(job)
        let byRecord = Dictionary(
            records.flatMap { record in record.recordIDs.map { ($0, record) } }, uniquingKeysWith: { a, _ in a })
        #expect(byRecord["r1"]?.outcome == .valid)
        #expect(byRecord["r2"]?.outcome == .skipped)
        #expect(byRecord["r2"]?.detail?.contains("left pending") == true)
        #expect(!records.contains { $0.outcome == .invalid })
    }

    @Test func anXcodeTransactionIsATestPurchaseNotAVerifiedOne() async {
        let job = VerifyStage.WorkUnit(
            receipt: UploadedReceipt(receiptID: "rc1", format: .signedTransaction, data: "unused"),
            check: ReceiptCheck(
                failure: nil, environment: .xcode, bundleID: "com.example.app", signature: .untrusted,
                transactionIDs: ["t1"]),
            rows: [Self.row("r1", tx: "t1")])
        let records = await Self.stage().verify(job)
        #expect(records.map(\.outcome) == [.skipped])
    }
}
