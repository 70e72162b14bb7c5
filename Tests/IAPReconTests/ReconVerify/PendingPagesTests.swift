import Foundation
import IAPReconTestSupport
import Logging
import Synchronization
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

/// Pending ledger rows are planned a page at a time, not loaded at once: a receipt's pending rows stay one job
/// whatever the page boundaries, and every pending row is verified exactly once.
@Suite struct PendingPagesTests {
    let dir = TemporaryDirectory("pending-pages")
    static let header =
        "record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,environment,"
        + "price,currency,storefront,verification_status,delivered_at,finished_at,receipt_id"

    /// 13 receipts each named by 2 pending rows (bought out of id order) and 1 verified row; 11 pending rows
    /// without a receipt and 3 naming a receipt the store lacks.
    func store() throws -> (ReconStore, pending: Set<String>) {
        var lines = [Self.header]
        var receipts: [String] = []
        var pending: Set<String> = []
        func row(_ id: String, _ day: Int, _ status: String, receipt: String) {
            let date = "2026-11-\(10 + day)T10:00:00Z"
            lines.append("\(id),u1,coins_100,t-\(id),,\(date),1,Production,0.99,USD,USA,\(status),,,\(receipt)")
            if status == "pending" { pending.insert(id) }
        }
        for index in 0..<13 {
            let receipt = String(format: "rc-%03d", index)
            receipts.append(#"{"receipt_id":"\#(receipt)","format":"signed-transaction","data":"e30.e30.AA"}"#)
            row("a\(receipt)", 2, "pending", receipt: receipt)
            row("b\(receipt)", 1, "pending", receipt: receipt)
            row("c\(receipt)", 1, "verified", receipt: receipt)
        }
        for index in 0..<11 { row(String(format: "n-%03d", index), 3, "pending", receipt: "") }
        for index in 0..<3 { row(String(format: "m-%03d", index), 3, "pending", receipt: "rc-missing") }
        let store = try ReconStore(path: dir.file("s.sqlite"), clock: ManualClock(millis: 1_795_176_000_000))
        let importer = Importer()
        _ = try importer.importFile(
            try dir.write("t.csv", lines.joined(separator: "\n") + "\n"), kind: .transactions, into: store)
        _ = try importer.importFile(
            try dir.write("r.jsonl", receipts.joined(separator: "\n") + "\n"), kind: .receipts, into: store)
        return (store, pending)
    }

    @Test(arguments: [1, 4, 13, 1_000])
    func everyPendingRowOnceAndEachReceiptWhole(pageSize: Int) throws {
        let (store, pending) = try store()
        #expect(try store.ledger.pendingJobCount() == 13 + 14)
        var pages = VerifyStage.PendingPages(pageSize: pageSize)
        var receipts: [String] = []
        var alone: [String] = []
        var seen: [String] = []
        while let job = try pages.next(store: store) {
            seen += job.rows.map(\.recordID)
            if let receipt = job.receipt {
                receipts.append(receipt.receiptID)
                // Both pending rows of the receipt, in purchase order; never the verified one.
                #expect(job.rows.map(\.recordID) == ["b\(receipt.receiptID)", "a\(receipt.receiptID)"])
            } else {
                #expect(job.rows.count == 1)
                alone += job.rows.map(\.recordID)
            }
        }
        #expect(receipts == (0..<13).map { String(format: "rc-%03d", $0) })
        #expect(alone == alone.sorted() && alone.count == 14)
        #expect(seen.count == pending.count && Set(seen) == pending)
    }

    @Test func verifySettlesEachPendingRowOnce() async throws {
        let (store, pending) = try store()
        let stage = VerifyStage(
            verifyReceipt: nil, serverAPI: nil, signedData: SignedDataVerifier(trust: .apple), bundleIDs: [],
            concurrency: 3)
        let last = Mutex((0, 0))
        let summary = try await stage.run(
            store: store, in: .unrecorded(clock: ManualClock(millis: 1_795_176_000_000)), logger: Logger.quiet
        ) { done, total in last.withLock { $0 = (done, total) } }
        // Nothing to verify with (receipts not decoded, no credentials): each row recorded once, still pending.
        #expect(summary.noEvidence == pending.count)
        #expect(last.withLock { $0 } == (27, 27))
        #expect(
            try store.receipts.verificationCount(source: .offline)
                + store.receipts.verificationCount(source: .serverAPI) == 27)
    }
}
