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

/// Receipts no ledger row names are planned a page at a time, not loaded at once.
@Suite struct OrphanPagesTests {
    let dir = TemporaryDirectory("orphan-pages")

    @Test func everyOrphanOnceInPagesOfBoundedSize() throws {
        let count = VerifyStage.OrphanPages.pageSize * 2 + 7
        let lines = (0..<count).map { index in
            #"{"receipt_id":"rc-\#(String(format: "%05d", index))","format":"app-receipt","data":"AAAA"}"#
        }
        let path = try dir.write("r.jsonl", lines.joined(separator: "\n") + "\n")
        let store = try ReconStore(path: dir.file("s.sqlite"), clock: ManualClock(millis: 1_795_176_000_000))
        _ = try Importer().importFile(path, kind: .receipts, into: store)
        #expect(try store.receipts.orphanReceiptCount() == count)
        var pages = VerifyStage.OrphanPages()
        var seen: [String] = []
        while let job = try pages.next(store: store) { seen.append(job.receipt?.receiptID ?? "") }
        #expect(seen.count == count)
        #expect(Set(seen).count == count)
        #expect(seen == seen.sorted())
        let page = try store.receipts.orphanReceiptsForVerification(after: nil, limit: VerifyStage.OrphanPages.pageSize)
        #expect(page.count == VerifyStage.OrphanPages.pageSize)
    }
}
