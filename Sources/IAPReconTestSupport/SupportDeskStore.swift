import Foundation
import IAPRecon

/// The small store the support desk is tested on, by `lookup` and by the web view.
///
/// u5 bought premium, got it, was refunded; u9 uploaded a receipt Apple confirms for a purchase the ledger never
/// recorded ("paid and got nothing"). The store is imported, verified and reported as a nightly run would leave it.
public enum SupportDeskStore {
    /// When u5 bought: 2026-11-18T09:46:40Z.
    public static let t0: Int64 = 1_795_000_000_000

    /// Builds the store in `dir` and returns the configuration that reads it.
    ///
    /// - Parameters:
    ///   - dir: where the store, its input files and the report folder go.
    ///   - extraLedgerRows: ledger rows added after u5's (columns as the ledger header below).
    ///   - attemptsForU9: how many tries Apple's answer for u9's receipt took.
    ///   - store: the store (a path or a `postgresql://` URL); `s.sqlite` in `dir` when nil.
    public static func build(
        in dir: TemporaryDirectory, extraLedgerRows: [String] = [], attemptsForU9: Int = 1, store: String? = nil
    ) async throws -> ReconConfig {
        let t0 = Self.t0
        let rows = ["r5,u5,premium,t5,\(t0),9.99,USD,verified,\(t0 + 2_000),\(t0 + 3_000),rc5"] + extraLedgerRows
        let ledger =
            "record_id,user_id,product_id,transaction_id,purchase_date,price,currency,verification_status,"
            + "delivered_at,finished_at,receipt_id\n" + rows.map { $0 + "\n" }.joined()
        let receipts = """
            {"receipt_id":"rc5","user_id":"u5","received_at":\(t0 + 1_000),"format":"app-receipt","data":"AAAA"}
            {"receipt_id":"rc9","user_id":"u9","received_at":\(t0 + 60_000),"format":"app-receipt","data":"BBBB","claimed_environment":"Production"}

            """
        var config = ReconConfig.forTesting(
            databasePath: store ?? dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        config.bundleIDs = ["com.example.app"]
        _ = try await config.dependencies(at: t0).importFiles(
            ImportRequest(
                transactions: [try dir.write("t.csv", ledger)], receipts: [try dir.write("r.jsonl", receipts)]))
        let store = try ReconStore(path: config.databasePath)
        try store.receipts.recordVerification(
            VerificationRecord(
                recordIDs: ["r5"], receiptID: "rc5", transactionID: "t5", source: .verifyReceipt,
                endpoint: "http://127.0.0.1/production/verifyReceipt", httpStatus: 200, appleStatus: 0,
                environment: .production, bundleID: "com.example.app", outcome: .valid, attempts: 1,
                entries: [
                    EvidenceEntry(
                        transactionID: "t5", originalTransactionID: "t5", productID: "premium", quantity: 1,
                        purchaseDate: t0, cancellationDate: t0 + 86_400_000)
                ]), runID: nil, at: t0 + 90_000_000, learnedAt: t0 + 90_000_000)
        try store.receipts.recordVerification(
            VerificationRecord(
                recordIDs: [], receiptID: "rc9", transactionID: nil, source: .verifyReceipt,
                endpoint: "http://127.0.0.1/production/verifyReceipt", httpStatus: 200, appleStatus: 0,
                environment: .production, bundleID: "com.example.app", outcome: .valid, attempts: attemptsForU9,
                entries: [
                    EvidenceEntry(
                        transactionID: "t9", originalTransactionID: "t9", productID: "premium", quantity: 1,
                        purchaseDate: t0 + 50_000)
                ]),
            runID: nil, at: t0 + 90_000_000, learnedAt: t0 + 90_000_000)
        _ = try await config.dependencies(at: t0 + 100_000_000).report()
        return config
    }
}
