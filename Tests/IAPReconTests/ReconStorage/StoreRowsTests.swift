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

/// Stored rows read back by column name; a stored value this program does not know (written by a
/// newer iap-recon, or by hand) stops the read with an error naming table, column and value
/// instead of turning into a default.
@Suite struct StoreRowsTests {
    let dir = TemporaryDirectory("rows")

    func store() throws -> ReconStore {
        let store = try ReconStore(path: dir.file("s.sqlite"))
        let writer = try store.ledgerImport.writer(bulk: false)
        try writer.upsert(
            CatalogProduct(
                productID: "gems100", type: .consumable, price: Money(milliunits: 9_990, currency: "USD"),
                storefront: "USA"),
            source: "p.csv", line: 2)
        try writer.upsert(
            LedgerTransaction(
                recordID: "r1", userID: "u1", productID: "gems100", transactionID: "t1",
                purchaseDate: 1_795_000_000_000,
                price: Money(milliunits: 9_990, currency: "USD"), storefront: "USA", verificationStatus: .pending),
            source: "t.csv", line: 2)
        return store
    }

    @Test func rowsRoundTripByName() throws {
        let store = try store()
        let product = try #require(try store.ledger.catalog()["gems100"]?.first)
        #expect(product.type == .consumable)
        #expect(product.price == Money(milliunits: 9_990, currency: "USD"))
        #expect(product.storefront == "USA")
        let row = try #require(try store.lookup.ledgerRows(transactionIDs: ["t1"]).first)
        #expect(row.verificationStatus == .pending)
        #expect(row.price == Money(milliunits: 9_990, currency: "USD"))
        #expect(row.originalTransactionID == "t1")
    }

    /// What Apple says of offers and upgrades, and when a receipt was made, are kept with the evidence; offline
    /// app-receipt evidence stored before the column existed reads its receipt's creation date from its check.
    @Test func evidenceKeepsOffersUpgradesAndTheReceiptsDate() throws {
        let store = try store()
        let receipt = UploadedReceipt(receiptID: "rc1", userID: "u1", format: .appReceipt, data: "AAAA")
        try store.ledgerImport.writer(bulk: false).upsert(receipt, source: "r.jsonl", line: 1)
        let entry = EvidenceEntry(
            transactionID: "t1", productID: "gems100", cancellationDate: 1_794_000_000_000, isUpgraded: true,
            isTrialPeriod: true, isInIntroOfferPeriod: false, offerType: 1, offerDiscountType: "FREE_TRIAL",
            receiptCreationDate: 1_794_500_000_000)
        try store.receipts.recordDecodes(
            [
                (
                    receipt,
                    .success(
                        ReceiptEvidence(
                            format: .appReceipt, environment: .production, creationDate: 1_794_600_000_000,
                            signature: .verified, entries: [entry]))
                )
            ], at: 1_795_000_000_000)
        func read() throws -> EvidenceEntry? {
            var found: EvidenceEntry?
            try store.ledger.forEachTransactionGroup {
                if $0.transactionID == "t1" { found = $0.evidence.first?.entry }
            }
            return found
        }
        #expect(try read() == entry)
        try store.db.execute("UPDATE evidence SET receipt_creation_date = NULL")
        #expect(try read()?.receiptCreationDate == 1_794_600_000_000)
    }

    @Test func anUnknownProductTypeIsAStoreError() throws {
        let store = try store()
        try store.db.execute("UPDATE products SET type = 'bundle'")
        #expect(throws: StoreError.unknownValue(table: "products", column: "type", value: "bundle")) {
            try store.ledger.catalog()
        }
    }

    @Test func anUnknownVerificationStatusIsAStoreError() throws {
        let store = try store()
        try store.db.execute("UPDATE transactions SET verification_status = 'refunded'")
        let expected = StoreError.unknownValue(table: "transactions", column: "verification_status", value: "refunded")
        #expect(throws: expected) { try store.lookup.ledgerRows(transactionIDs: ["t1"]) }
        let message = expected.errorDescription
        #expect(message == "store table 'transactions' column 'verification_status' holds unknown value 'refunded'")
    }
}
