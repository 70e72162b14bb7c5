import Foundation
import IAPReconTestSupport
import Testing

@testable import IAPRecon

/// Stored rows read back by column name; a stored value this program does not know (written by a
/// newer iap-recon, or by hand) stops the read with an error naming table, column and value
/// instead of turning into a default.
@Suite struct StoreRowsTests {
    let dir = TemporaryDirectory("rows")

    func store() throws -> ReconStore {
        let store = try ReconStore(path: dir.file("s.sqlite"))
        let writer = try LedgerWriter(store: store)
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
        let product = try #require(try store.catalog()["gems100"]?.first)
        #expect(product.type == .consumable)
        #expect(product.price == Money(milliunits: 9_990, currency: "USD"))
        #expect(product.storefront == "USA")
        let row = try #require(try store.ledgerRows(transactionIDs: ["t1"]).first)
        #expect(row.verificationStatus == .pending)
        #expect(row.price == Money(milliunits: 9_990, currency: "USD"))
        #expect(row.originalTransactionID == "t1")
    }

    @Test func anUnknownProductTypeIsAStoreError() throws {
        let store = try store()
        try store.db.execute("UPDATE products SET type = 'bundle'")
        #expect(throws: StoreError.unknownValue(table: "products", column: "type", value: "bundle")) {
            try store.catalog()
        }
    }

    @Test func anUnknownVerificationStatusIsAStoreError() throws {
        let store = try store()
        try store.db.execute("UPDATE transactions SET verification_status = 'refunded'")
        let expected = StoreError.unknownValue(table: "transactions", column: "verification_status", value: "refunded")
        #expect(throws: expected) { try store.ledgerRows(transactionIDs: ["t1"]) }
        let message = expected.errorDescription
        #expect(message == "store table 'transactions' column 'verification_status' holds unknown value 'refunded'")
    }
}
