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

let ledgerHeader =
    "record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,environment,price,currency,storefront,verification_status,delivered_at,finished_at,receipt_id"

@Suite struct ImporterTests {
    let dir = TemporaryDirectory("importer")

    func store() throws -> ReconStore {
        try ReconStore(path: dir.file("store.sqlite"), clock: ManualClock(millis: 1_795_176_000_000))
    }

    func importing(_ name: String, _ text: String, kind: InputKind = .transactions) throws -> (
        ImportFileSummary, ReconStore
    ) {
        let path = try dir.write(name, text)
        let store = try store()
        let summary = try Importer().importFile(path, kind: kind, into: store)
        return (summary, store)
    }

    @Test(arguments: [
        (",u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,", "missing required field 'record_id'"),
        ("r1,,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,", "missing required field 'user_id'"),
        (
            "r1,u1,p,t1,,2026-11-20,1,Production,0.99,USD,USA,verified,,,",
            "bad timestamp in 'purchase_date': '2026-11-20' (expected ISO 8601 with offset or epoch milliseconds)"
        ),
        (
            "r1,u1,p,t1,,2026-11-20T10:00:00,1,Production,0.99,USD,USA,verified,,,",
            "bad timestamp in 'purchase_date': '2026-11-20T10:00:00' (expected ISO 8601 with offset or epoch milliseconds)"
        ),
        (
            "r1,u1,p,t1,,2026-02-30T10:00:00Z,1,Production,0.99,USD,USA,verified,,,",
            "bad timestamp in 'purchase_date': '2026-02-30T10:00:00Z' (expected ISO 8601 with offset or epoch milliseconds)"
        ),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Prod,0.99,USD,USA,verified,,,",
            "bad value in 'environment': 'Prod' (expected Production or Sandbox)"
        ),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,done,,,",
            "bad value in 'verification_status': 'done' (expected pending, verified, invalid or error)"
        ),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,two,Production,0.99,USD,USA,verified,,,",
            "bad number in 'quantity': 'two' (expected a whole number from 1 to 10)"
        ),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,0,Production,0.99,USD,USA,verified,,,",
            "implausible value in 'quantity': 0 (Apple sells from 1 to 10 of a product in one transaction)"
        ),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.999,USD,USA,verified,,,",
            "bad price in 'price': '0.999' has more than 2 decimals"
        ),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,12.5,JPY,JPN,verified,,,",
            "bad price in 'price': '12.5' has more than 0 decimals"
        ),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,abc,USD,USA,verified,,,",
            "bad price in 'price': 'abc' is not a decimal number"
        ),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,XYZ,USA,verified,,,",
            "unknown currency 'XYZ' in 'currency'"
        ),
        ("r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,,USA,verified,,,", "'price' given without 'currency'"),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,US,verified,,,",
            "bad value in 'storefront': 'US' (expected ISO 3166-1 alpha-3 like USA)"
        ),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,soon,,",
            "bad timestamp in 'delivered_at': 'soon' (expected ISO 8601 with offset or epoch milliseconds)"
        ),
        ("r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,", "row has 14 fields, header has 15"),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,,extra",
            "row has 16 fields, header has 15"
        ),
        (
            "r1,u1,p\"q,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,",
            "malformed CSV: a quote inside an unquoted field"
        ),
    ])
    func rejectsWithReason(row: String, reason: String) throws {
        try expectRejected(row: row, reason: reason)
    }

    /// CONTRACT §1.1: values a real ledger cannot hold are rejected rows, never stored.
    @Test(arguments: [
        // A Go/.NET "zero time": stored, it once stopped every later report (Excel cannot hold it).
        (
            "r1,u1,p,t1,,0001-01-01T00:00:00Z,1,Production,0.99,USD,USA,verified,,,",
            "implausible timestamp in 'purchase_date': '0001-01-01T00:00:00Z' is before 2008-07-01"
        ),
        (
            "r1,u1,p,t1,,2008-06-30T23:59:59Z,1,Production,0.99,USD,USA,verified,,,",
            "implausible timestamp in 'purchase_date': '2008-06-30T23:59:59Z' is before 2008-07-01"
        ),
        (
            "r1,u1,p,t1,,2100-01-01T00:00:00Z,1,Production,0.99,USD,USA,verified,,,",
            "implausible timestamp in 'purchase_date': '2100-01-01T00:00:00Z' is after 2100-01-01"
        ),
        // Epoch seconds read as milliseconds would book the purchase on 1970-01-20.
        (
            "r1,u1,p,t1,,1700000000,1,Production,0.99,USD,USA,verified,,,",
            "implausible timestamp in 'purchase_date': '1700000000' is before 2008-07-01"
                + " (epoch seconds? this field takes epoch milliseconds: '1700000000000')"
        ),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,1700000000,,",
            "implausible timestamp in 'delivered_at': '1700000000' is before 2008-07-01"
                + " (epoch seconds? this field takes epoch milliseconds: '1700000000000')"
        ),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,9999999999999999,",
            "implausible timestamp in 'finished_at': '9999999999999999' is after 2100-01-01"
        ),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,-0.99,USD,USA,verified,,,",
            "implausible value in 'price': '-0.99' is negative (a price is what the customer paid)"
        ),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,11,Production,0.99,USD,USA,verified,,,",
            "implausible value in 'quantity': 11 (Apple sells from 1 to 10 of a product in one transaction)"
        ),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,-1,Production,0.99,USD,USA,verified,,,",
            "implausible value in 'quantity': -1 (Apple sells from 1 to 10 of a product in one transaction)"
        ),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,10,Production,999999999999999.99,USD,USA,verified,,,",
            "implausible value in 'price': 999999999999999.99 USD × 10 does not fit the money type"
        ),
        (
            "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,99999999999999999,USD,USA,verified,,,",
            "bad price in 'price': '99999999999999999' is out of range for the money type"
        ),
    ])
    func rejectsImplausibleValue(row: String, reason: String) throws {
        try expectRejected(row: row, reason: reason)
    }

    @Test func acceptsTheEdgesOfPlausible() throws {
        let rows = [
            "r1,u1,p,t1,,2008-07-01T00:00:00Z,10,Production,0,USD,USA,verified,,,",
            "r2,u1,p,t2,,2099-12-31T23:59:59Z,1,Production,999999999999999.99,USD,USA,verified,1214870400000,,",
        ]
        let (summary, _) = try importing("t.csv", ledgerHeader + "\n" + rows.joined(separator: "\n") + "\n")
        #expect(summary.accepted == 2)
        #expect(summary.rejected == 0)
    }

    func expectRejected(row: String, reason: String) throws {
        let (summary, store) = try importing("t.csv", ledgerHeader + "\n" + row + "\n")
        #expect(summary.read == 1)
        #expect(summary.accepted == 0)
        #expect(summary.rejected == 1)
        let rejected = try store.ledger.rejectedRows()
        #expect(rejected.count == 1)
        #expect(rejected.first?.reason == reason)
        #expect(rejected.first?.line == 2)
        #expect(rejected.first?.raw == row)
        #expect(try store.ledger.counts().transactions == 0)
    }

    /// A misspelled optional column would leave every row "not delivered" without a word.
    @Test func unknownColumnsAreOneLineWarnings() throws {
        let csv =
            "record_id,user_id,product_id,transaction_id,purchase_date,verification_status,delivered,Colour\n"
            + "r1,u1,p,77,1795176000000,verified,1795176000000,red\n"
        let (summary, _) = try importing("t.csv", csv)
        #expect(summary.read == 1)
        #expect(summary.accepted == 1)
        #expect(
            summary.warnings == [
                "transactions \(dir.file("t.csv")): unknown column 'delivered' ignored (did you mean 'delivered_at'?)",
                "transactions \(dir.file("t.csv")): unknown column 'Colour' ignored",
            ])
        let jsonl =
            #"{"record_id":"r1","user_id":"u1","product_id":"p","transaction_id":"77","#
            + #""purchase_date":1795176000000,"verification_status":"verified","finised_at":1795176000000}"# + "\n"
            + #"{"record_id":"r2","user_id":"u1","product_id":"p","transaction_id":"78","#
            + #""purchase_date":1795176000000,"verification_status":"verified","finised_at":1795176000000}"# + "\n"
        let (jsonSummary, _) = try importing("t.jsonl", jsonl)
        #expect(jsonSummary.accepted == 2)
        #expect(
            jsonSummary.warnings == [
                "transactions \(dir.file("t.jsonl")): unknown column 'finised_at' ignored (did you mean 'finished_at'?)"
            ])
        let (clean, _) = try importing("clean.csv", ledgerHeader + "\n")
        #expect(clean.warnings == nil)
    }

    /// CONTRACT §1.6: a row fixed at the source leaves `rejected.csv` when the file is re-imported.
    @Test func reimportReplacesTheFilesEarlierRejections() throws {
        let bad = "r1,u1,p,t1,,1700000000,1,Production,0.99,USD,USA,verified,,,"
        let fixed = "r1,u1,p,t1,,1700000000000,1,Production,0.99,USD,USA,verified,,,"
        let (_, store) = try importing("t.csv", ledgerHeader + "\n" + bad + "\n")
        _ = try importing("other.csv", ledgerHeader + "\n" + bad + "\n")
        #expect(try store.ledger.rejectedRows().count == 2)
        let (summary, again) = try importing("t.csv", ledgerHeader + "\n" + fixed + "\n")
        #expect(summary.accepted == 1)
        #expect(try again.ledger.rejectedRows().map(\.source) == [dir.file("other.csv")])
    }

    /// A row whose transaction, receipt or environment changed at the source is verified again:
    /// the store's earlier verdict was about something else.
    @Test(arguments: [
        ("r1,u1,p,t2,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,rc1", true),
        ("r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,rc2", true),
        ("r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Sandbox,0.99,USD,USA,pending,,,rc1", true),
        ("r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,", true),
        ("r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,1.99,USD,USA,pending,2026-11-20T00:00:01Z,,rc1", false),
    ])
    func changedIdentityLosesTheStoresVerdict(row: String, verifiedAgain: Bool) throws {
        let original = "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,rc1"
        let (_, store) = try importing("t.csv", ledgerHeader + "\n" + original + "\n")
        try store.db.execute("UPDATE transactions SET recon_verdict = 'verified', recon_verification_id = 1")
        #expect(try store.ledger.counts().pending == 0)
        _ = try importing("t.csv", ledgerHeader + "\n" + row + "\n")
        #expect(try store.ledger.counts().pending == (verifiedAgain ? 1 : 0))
    }

    @Test func parsesEveryFieldExactly() throws {
        let text =
            ledgerHeader + "\n"
            + "r1,u1,coins,2000001,1999999,2026-11-20T05:05:00-08:00,3,Sandbox,1.250,KWD,kwt,pending,1795170000000,2026-11-20T13:06:00.5Z,rc1\n"
        let (summary, store) = try importing("t.csv", text)
        #expect(
            summary
                == ImportFileSummary(kind: "transactions", file: dir.file("t.csv"), read: 1, accepted: 1, rejected: 0))
        var rows: [LedgerTransaction] = []
        try store.ledger.forEachTransactionGroup { rows += $0.records }
        #expect(
            rows == [
                LedgerTransaction(
                    recordID: "r1", userID: "u1", productID: "coins", transactionID: "2000001",
                    originalTransactionID: "1999999", purchaseDate: 1_795_179_900_000, quantity: 3,
                    environment: .sandbox,
                    price: Money(milliunits: 1_250, currency: "KWD"), storefront: "KWT", verificationStatus: .pending,
                    deliveredAt: 1_795_170_000_000, finishedAt: 1_795_179_960_500, receiptID: "rc1")
            ])
    }

    @Test func defaultsOptionalFields() throws {
        let text =
            "record_id,user_id,product_id,transaction_id,purchase_date,verification_status\nr1,u1,p,77,1795176000000,verified\n"
        let (summary, store) = try importing("t.csv", text)
        #expect(summary.accepted == 1)
        var rows: [LedgerTransaction] = []
        try store.ledger.forEachTransactionGroup { rows += $0.records }
        #expect(rows.first?.originalTransactionID == "77")
        #expect(rows.first?.quantity == 1)
        #expect(rows.first?.environment == .production)
        #expect(rows.first?.price == nil)
    }

    @Test func countsLinesAfterQuotedMultilineFieldsWithBOMAndCRLF() throws {
        let text =
            "\u{FEFF}" + ledgerHeader + "\r\n"
            + "r1,u1,\"coins, \"\"big\"\"\",t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,\r\n"
            + "r2,u2,\"two\r\nline\r\nproduct\",t2,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,\r\n"
            + "r3,u3,p,t3,,bad,1,Production,0.99,USD,USA,verified,,,\r\n"
            + "r4,u4,\"x\ny\",t4,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,oops,,,\r\n"
            + "r5,u5,p,t5,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,"
        let (summary, store) = try importing("t.csv", text)
        #expect(summary.read == 5)
        #expect(summary.accepted == 3)
        #expect(summary.rejected == 2)
        let rejected = try store.ledger.rejectedRows()
        #expect(rejected.map(\.line) == [6, 7])  // r2 spans lines 3–5, r4 lines 7–8
        #expect(rejected.map(\.recordID) == ["r3", "r4"])
        var products: [String] = []
        try store.ledger.forEachTransactionGroup { products += $0.records.map(\.productID) }
        #expect(products == ["coins, \"big\"", "two\r\nline\r\nproduct", "p"])
    }

    @Test func unterminatedQuoteAtEndOfFileIsRejectedNotDropped() throws {
        let text = ledgerHeader + "\nr1,u1,\"open,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,\n"
        let (summary, store) = try importing("t.csv", text)
        #expect(summary.read == 1)
        #expect(summary.rejected == 1)
        #expect(
            try store.ledger.rejectedRows().first?.reason
                == "malformed CSV: a quoted field is not closed before the end of the file")
    }

    @Test func emptyAndHeaderOnlyFilesReadNothing() throws {
        let (empty, _) = try importing("empty.csv", "")
        #expect(empty.read == 0 && empty.accepted == 0 && empty.rejected == 0)
        let (header, store) = try importing("header.csv", ledgerHeader + "\n")
        #expect(header.read == 0 && header.accepted == 0 && header.rejected == 0)
        #expect(try store.ledger.counts().transactions == 0)
    }

    @Test func missingFileIsOneClearError() throws {
        let store = try store()
        let missing = dir.file("nope.csv")
        #expect(throws: ImportFileError.cannotOpen(path: missing, reason: "No such file or directory")) {
            try Importer().run(ImportRequest(transactions: [missing]), into: store)
        }
        #expect(
            ImportFileError.cannotOpen(path: missing, reason: "No such file or directory").errorDescription
                == "cannot open '\(missing)': No such file or directory")
    }

    @Test func reimportIsIdempotentAndUpdatesRows() throws {
        let first =
            ledgerHeader + "\n"
            + "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,pending,,,\n"
            + "r2,u2,p,t2,,garbage,1,Production,0.99,USD,USA,pending,,,\n"
        let path = try dir.write("t.csv", first)
        let store = try store()
        for _ in 0..<3 { _ = try Importer().run(ImportRequest(transactions: [path]), into: store) }
        #expect(try store.ledger.counts().transactions == 1)
        #expect(try store.ledger.counts().rejected == 1)
        try dir.write(
            "t.csv",
            ledgerHeader
                + "\nr1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,2026-11-20T00:01:00Z,,\n")
        _ = try Importer().run(ImportRequest(transactions: [path]), into: store)
        var rows: [LedgerTransaction] = []
        try store.ledger.forEachTransactionGroup { rows += $0.records }
        #expect(rows.count == 1)
        #expect(rows.first?.verificationStatus == .verified)
        #expect(rows.first?.deliveredAt == 1_795_132_860_000)
    }

    @Test func readsJSONLTransactionsAndRejectsBadJSON() throws {
        let text = """
            {"record_id":"r1","user_id":"u1","product_id":"p","transaction_id":"t1","purchase_date":1795176000000,"quantity":2,"price":"0.99","currency":"USD","verification_status":"verified"}

            {"record_id":"r2","user_id":"u2",
            [1,2]
            {"record_id":"r3","user_id":"u3","product_id":"p","transaction_id":"t3","purchase_date":"2026-11-20T00:00:00Z","verification_status":"verified","quantity":{"n":1}}
            {"record_id":"r4","user_id":"u4","product_id":"p","transaction_id":"t4","purchase_date":"2026-11-20T00:00:00Z","verification_status":"verified","environment":"Sandbox"}

            """
        let (summary, store) = try importing("t.jsonl", text)
        #expect(summary.read == 5)
        #expect(summary.accepted == 2)
        #expect(summary.rejected == 3)
        let rejected = try store.ledger.rejectedRows()
        #expect(rejected.map(\.line) == [3, 4, 5])
        #expect(
            rejected.map(\.reason) == [
                "bad JSON", "bad JSON: a line must be one JSON object",
                "bad JSON: field 'quantity' must be a string or a number",
            ])
        #expect(rejected.last?.recordID == "r3")
    }

    @Test func importsReceiptsAndProducts() throws {
        let receipts = """
            {"receipt_id":"rc1","user_id":"u1","received_at":"2026-11-20T00:00:00Z","format":"signed-transaction","data":"a.b.c","claimed_environment":"Sandbox"}
            {"receipt_id":"rc2","format":"floppy-disk","data":"x"}
            {"receipt_id":"rc3","format":"app-receipt"}
            """
        let (receiptSummary, store) = try importing("r.jsonl", receipts, kind: .receipts)
        #expect(receiptSummary.read == 3 && receiptSummary.accepted == 1 && receiptSummary.rejected == 2)
        let products = """
            product_id,type,price,currency,storefront,proceeds_rate
            coins,consumable,0.99,USD,,
            coins,consumable,160,JPY,JPN,0.85
            pro,lifetime,9.99,USD,,
            sub,auto-renewable,4.99,USD,,1.5
            """
        let path = try dir.write("p.csv", products)
        let productSummary = try Importer().importFile(path, kind: .products, into: store)
        #expect(productSummary.read == 4 && productSummary.accepted == 2 && productSummary.rejected == 2)
        let catalog = try store.ledger.catalog()
        #expect(catalog["coins"]?.count == 2)
        #expect(
            catalog["coins"]?.last
                == CatalogProduct(
                    productID: "coins", type: .consumable, price: Money(milliunits: 160_000, currency: "JPY"),
                    storefront: "JPN", proceedsRatePPM: 850_000))
        #expect(
            try store.ledger.rejectedRows().map(\.reason) == [
                "bad value in 'type': 'lifetime' (expected consumable, non-consumable, auto-renewable or non-renewing)",
                "bad number in 'proceeds_rate': '1.5' (expected 0 < rate ≤ 1)",
                "bad value in 'format': 'floppy-disk' (expected app-receipt, transaction-receipt or signed-transaction)",
                "missing required field 'data'",
            ])
    }

    @Test func storeFileIsPrivate() throws {
        _ = try store()
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.file("store.sqlite"))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func aNonStoreFileIsAClearError() throws {
        let path = try dir.write("junk.sqlite", String(repeating: "not a database ", count: 100))
        #expect(throws: StoreError.self) { try ReconStore(path: path) }
        do {
            _ = try ReconStore(path: path)
        } catch {
            #expect(error.errorDescription?.contains("junk.sqlite") == true)
        }
    }
}

@Suite struct TimestampTests {
    @Test(arguments: [
        ("2026-11-20T13:05:00Z", Int64(1_795_179_900_000)), ("2026-11-20T05:05:00-08:00", 1_795_179_900_000),
        ("2026-11-20T14:05:00+0100", 1_795_179_900_000), ("2026-11-20T13:05:00.250Z", 1_795_179_900_250),
        ("1795179900000", 1_795_179_900_000), ("2024-02-29T00:00:00Z", 1_709_164_800_000), ("1970-01-01T00:00:00Z", 0),
    ])
    func parses(text: String, millis: Int64) {
        #expect(Timestamp.parse(text) == millis)
    }

    @Test(arguments: [
        "", "2026-11-20", "2026-11-20T13:05:00", "2025-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "20261120T130500Z",
        "12.5", "2026-11-20T13:05:00Zjunk", "2026-11-20T25:00:00Z",
    ])
    func rejects(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test func formatsUTC() {
        #expect(Timestamp.iso(1_795_179_900_250) == "2026-11-20T13:05:00.250Z")
        #expect(Timestamp.iso(0) == "1970-01-01T00:00:00Z")
        #expect(Timestamp.dayString(20_412) == "2025-11-20")
    }
}
