import Foundation
import IAPReconTestSupport
import Logging

@testable import IAPRecon

/// A small store for the web view: u5 bought premium, got it, was refunded; u9 uploaded a
/// receipt Apple confirms for a purchase the ledger never recorded ("paid and got nothing");
/// a user and a product whose ids, as the backend exported them, hold markup.
struct SupportFixture {
    static let t0: Int64 = 1_795_000_000_000  // 2026-11-18T11:06:40Z
    static let markupUser = "<b onmouseover=alert(1)>eve</b>"
    static let markupProduct = "<img src=x onerror=alert(2)>"

    let dir: TemporaryDirectory
    let config: ReconConfig
    let logger = Logger.quiet

    init(_ label: String) async throws {
        let t0 = Self.t0
        dir = TemporaryDirectory(label)
        let ledger = """
            record_id,user_id,product_id,transaction_id,purchase_date,price,currency,verification_status,delivered_at,finished_at,receipt_id
            r5,u5,premium,t5,\(t0),9.99,USD,verified,\(t0 + 2_000),\(t0 + 3_000),rc5
            r7,\(Self.markupUser),\(Self.markupProduct),t7,\(t0),1.99,USD,pending,,,

            """
        let receipts = """
            {"receipt_id":"rc5","user_id":"u5","received_at":\(t0 + 1_000),"format":"app-receipt","data":"AAAA"}
            {"receipt_id":"rc9","user_id":"u9","received_at":\(t0 + 60_000),"format":"app-receipt","data":"BBBB","claimed_environment":"Production"}

            """
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        config.bundleIDs = ["com.example.app"]
        self.config = config
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
                environment: .production, bundleID: "com.example.app", outcome: .valid, attempts: 1,
                entries: [
                    EvidenceEntry(
                        transactionID: "t9", originalTransactionID: "t9", productID: "premium", quantity: 1,
                        purchaseDate: t0 + 50_000)
                ]),
            runID: nil, at: t0 + 90_000_000)
        _ = try await config.dependencies(at: t0 + 100_000_000).report()
    }

    /// What `lookup --format json` prints for `subject` (stdout bytes).
    func lookupJSON(_ subject: LookupSubject) async throws -> String {
        try await config.dependencies(opening: .readOnly).lookup(subject, json: true).lines.joined(separator: "\n")
            + "\n"
    }

    /// The first line `lookup` prints for `subject`.
    func answerLine(_ subject: LookupSubject) async throws -> String {
        try await config.dependencies(opening: .readOnly).lookup(subject, json: false).lines.first?
            .split(separator: "\n").first.map(String.init) ?? ""
    }
}
