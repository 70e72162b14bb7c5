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

/// The ledger's fast path accepts only rows the general path accepts, with the same values; it
/// declines everything else, which the general path then accepts or rejects with its reason.
@Suite struct LedgerFastPathTests {
    static let header = ledgerHeader.split(separator: ",").map(String.init)

    /// The fast path's reading of `row`, as a value (nil: declined).
    func fast(_ row: String, header: [String] = Self.header) -> LedgerTransaction? {
        var path = LedgerFastPath(layout: FieldLayout(header: header), width: header.count, seed: 1)
        var bytes: [UInt8] = []
        let record = Array(row.utf8)
        let packed = record.withUnsafeBufferPointer { path.parse($0, line: 2, into: &bytes) }
        return packed.map { p in bytes.withUnsafeBufferPointer { p.transaction(in: $0) } }
    }

    /// The general path's reading of `row`.
    func general(_ row: String, header: [String] = Self.header) throws -> LedgerTransaction {
        let values = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return try RowParser.transaction(RowFields(layout: FieldLayout(header: header), values: values))
    }

    @Test(arguments: [
        "r1,u1,coins,2000001,1999999,2026-11-20T05:05:00-08:00,3,Sandbox,1.250,KWD,KWT,pending,1795170000000,2026-11-20T13:06:00.5Z,rc1",
        "r2,u2,pro,2000002,,2026-11-20T13:05:00Z,,Production,0.99,USD,USA,verified,,,",
        "r3,u3,pro,2000003,,1795176000000,10,,1200,JPY,JPN,invalid,2026-11-20T13:05:00.123+05:30,,",
        "r4,u4,pro,2000004,2000001,2026-11-20T13:05:00+0900,1,Production,,,,error,,,rc4",
        "r5,u5,pro,2000005,,2026-11-20 13:05:00Z,01,Production,4.9,EUR,DEU,verified,,,",
        "7f0c2e1a-9b8d-4c3e-a1f2-0123456789ab,u6,p,2000006,,2008-07-01T00:00:00Z,2,Production,999999999999999,USD,USA,pending,,,",
    ])
    func acceptsWhatTheGeneralPathAcceptsWithTheSameValues(row: String) throws {
        let expected = try general(row)
        #expect(fast(row) == expected)
    }

    /// Rows the general path reads differently from their text (trimmed, lower-cased, upper-cased)
    /// or rejects: the fast path leaves every one of them to it.
    @Test(arguments: [
        "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,production,0.99,USD,USA,verified,,,",  // lower-case environment
        "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,usa,verified,,,",  // lower-case storefront
        "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,usd,USA,verified,,,",  // lower-case currency
        "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,Verified,,,",  // capitalised status
        "r1, u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,",  // a blank to trim
        "r1,u1,p,t1,,2026-11-20T00:00:00Z,+1,Production,0.99,USD,USA,verified,,,",  // signed quantity
        "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.990,USD,USA,verified,,,",  // a harmless trailing zero
        "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,.99,USD,USA,verified,,,",  // no whole digit
        "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,,USA,verified,,,",  // price without currency
        "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,,USD,USA,verified,,,",  // currency without price
        "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,1.999,USD,USA,verified,,,",  // too many decimals
        "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,1,XXX,USA,verified,,,",  // unknown currency
        "r1,u1,p,t1,,2026-11-20T00:00:00,1,Production,0.99,USD,USA,verified,,,",  // no offset
        "r1,u1,p,t1,,1700000000,1,Production,0.99,USD,USA,verified,,,",  // epoch seconds
        "r1,u1,p,t1,,2026-11-20T00:00:00Z,11,Production,0.99,USD,USA,verified,,,",  // quantity above 10
        "r1,u1,p,t1,,2026-11-20T00:00:00Z,0,Production,0.99,USD,USA,verified,,,",  // quantity 0
        "r1,u1,p,t1,,2026-11-20T00:00:00Z,10,Production,999999999999999.999,KWD,USA,verified,,,",  // overflows × 10
        ",u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,",  // missing record id
        "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,",  // a field short
        "r1,u1,p,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,,",  // a field too many
        "r1,u1,p\u{E9},t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,",  // not ASCII
        "r1,u1,p\tq,t1,,2026-11-20T00:00:00Z,1,Production,0.99,USD,USA,verified,,,",  // a control character
    ])
    func declinesEverythingElse(row: String) {
        #expect(fast(row) == nil)
    }

    @Test func readsColumnsInAnyOrderAndIgnoresUnknownOnes() throws {
        let header = [
            "purchase_date", "note", "verification_status", "transaction_id", "product_id", "user_id", "record_id",
        ]
        let row = "2026-11-20T00:00:00Z,hello,verified,77,p,u1,r1"
        let expected = try general(row, header: header)
        #expect(fast(row, header: header) == expected)
        #expect(expected.originalTransactionID == "77")
    }

    @Test func theRowHashDependsOnTheTextAndTheHeader() {
        func hash(_ text: String, _ seed: UInt64) -> UInt64 { RowHash.hash(text, seed: seed) }
        let seed = RowHash.seed(header: Array(ledgerHeader.utf8))
        #expect(hash("r1,u1", seed) == hash("r1,u1", seed))
        #expect(hash("r1,u1", seed) != hash("r1,u2", seed))
        #expect(hash("r1,u1", seed) != hash("r1,u1", RowHash.seed(header: Array("x".utf8))))
        #expect(hash("", seed) != hash("\0", seed))
        // The same in every run and on every machine: the next import compares stored hashes
        // (values from an independent implementation of the same function).
        #expect(RowHash.hash("r1,u1", seed: 1) == 0xFB82_748E_B887_C9F0)
        #expect(RowHash.hash("0123456789abcdefXYZ", seed: 7) == 0x00EC_1DF8_8848_7B9B)
    }
}
