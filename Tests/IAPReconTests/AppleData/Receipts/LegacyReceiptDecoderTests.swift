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

/// iOS 6 transaction receipts and the old-style plist parser under them.
@Suite("LegacyReceiptDecoder")
struct LegacyReceiptDecoderTests {
    /// A full iOS 6 receipt as the App Store wrote them, `purchase-info` with every key.
    static func fullReceipt(environment: String? = "Sandbox", purchaseInfoExtra: String = "") -> String {
        let purchaseInfo = """
            {
            \t"original-purchase-date-pst" = "2013-05-20 11:01:01 America/Los_Angeles";
            \t"purchase-date-ms" = "1369072861000";
            \t"unique-identifier" = "0000b0090000";
            \t"original-transaction-id" = "1000000076000000";
            \t"expires-date" = "1369073161000";
            \t"transaction-id" = "1000000076000001";
            \t"original-purchase-date-ms" = "1369072861000";
            \t"web-order-line-item-id" = "1000000027000000";
            \t"bvrs" = "1.0.2";
            \t"unique-vendor-identifier" = "6F0C1F63-8F6C-4F4C-9B3C-0D0A6D7A8B10";
            \t"item-id" = "642235561";
            \t"app-item-id" = "642235000";
            \t"version-external-identifier" = "12345";
            \t"product-id" = "com.example.monthly";
            \t"purchase-date" = "2013-05-20 18:01:01 Etc/GMT";
            \t"original-purchase-date" = "2013-05-20 18:01:01 Etc/GMT";
            \t"bid" = "com.example.app";
            \t"purchase-date-pst" = "2013-05-20 11:01:01 America/Los_Angeles";
            \t"quantity" = "2";
            \(purchaseInfoExtra)
            }
            """
        let environmentLine = environment.map { "\t\"environment\" = \"\($0)\";\n" } ?? ""
        let outer = """
            {
            \t"signature" = "AkC3wJm0cxj8zY1V3mB0f2Q=";
            \t"purchase-info" = "\(Data(purchaseInfo.utf8).base64EncodedString())";
            \(environmentLine)\t"pod" = "100";
            \t"signing-status" = "0";
            }
            """
        return Data(outer.utf8).base64EncodedString(options: [.lineLength76Characters])
    }

    @Test func appleFixtureDecodes() throws {
        let result = LegacyReceiptDecoder().decodeReceipt(try ReceiptFixtures.mock("legacyTransaction"))
        let receipt = try result.get()
        #expect(receipt.transactionID == "33993399")
        #expect(receipt.environment == .production)  // absent = Production, as Apple does
        #expect(receipt.rawEnvironment == nil)
        #expect(receipt.productID == nil)
        #expect(receipt.purchaseInfo == ["transaction-id": "33993399"])

        let evidence = try LegacyReceiptDecoder().decode(try ReceiptFixtures.mock("legacyTransaction")).get()
        #expect(evidence.format == .transactionReceipt)
        #expect(evidence.signature == .notChecked)
        #expect(evidence.environment == .production)
        #expect(evidence.entries.map(\.transactionID) == ["33993399"])
    }

    @Test func everyPurchaseInfoKeyIsDecoded() throws {
        let receipt = try LegacyReceiptDecoder().decodeReceipt(Self.fullReceipt()).get()
        #expect(receipt.environment == .sandbox)
        #expect(receipt.rawEnvironment == "Sandbox")
        #expect(receipt.pod == "100")
        #expect(receipt.signingStatus == "0")
        #expect(receipt.signature?.isEmpty == false)
        #expect(receipt.transactionID == "1000000076000001")
        #expect(receipt.originalTransactionID == "1000000076000000")
        #expect(receipt.productID == "com.example.monthly")
        #expect(receipt.bundleID == "com.example.app")
        #expect(receipt.bundleVersion == "1.0.2")
        #expect(receipt.quantity == 2)
        #expect(receipt.purchaseDate == 1_369_072_861_000)
        #expect(receipt.originalPurchaseDate == 1_369_072_861_000)
        #expect(receipt.expiresDate == 1_369_073_161_000)
        #expect(receipt.webOrderLineItemID == "1000000027000000")
        #expect(receipt.itemID == "642235561")
        #expect(receipt.appItemID == "642235000")
        #expect(receipt.versionExternalIdentifier == "12345")
        #expect(receipt.uniqueIdentifier == "0000b0090000")
        #expect(receipt.uniqueVendorIdentifier == "6F0C1F63-8F6C-4F4C-9B3C-0D0A6D7A8B10")
        #expect(receipt.purchaseInfo["purchase-date-pst"] == "2013-05-20 11:01:01 America/Los_Angeles")

        let evidence = receipt.evidence
        #expect(evidence.bundleID == "com.example.app")
        #expect(evidence.environment == .sandbox)
        let entry = try #require(evidence.entries.first)
        #expect(entry.transactionID == "1000000076000001")
        #expect(entry.originalTransactionID == "1000000076000000")
        #expect(entry.productID == "com.example.monthly")
        #expect(entry.quantity == 2)
        #expect(entry.purchaseDate == 1_369_072_861_000)
        #expect(entry.expiresDate == 1_369_073_161_000)
        #expect(entry.webOrderLineItemID == "1000000027000000")
        #expect(entry.bundleID == "com.example.app")
    }

    @Test func formattedDateIsUsedWhenMillisecondsAreAbsent() throws {
        let purchaseInfo = #"{ "transaction-id" = "1"; "purchase-date" = "2013-05-20 18:01:01 Etc/GMT"; }"#
        let outer = #"{ "purchase-info" = "\#(Data(purchaseInfo.utf8).base64EncodedString())"; }"#
        let receipt = try LegacyReceiptDecoder().decodeReceipt(Data(outer.utf8).base64EncodedString()).get()
        #expect(receipt.purchaseDate == 1_369_072_861_000)
    }

    @Test(arguments: ["Sandbox", "Production", "sandbox"])
    func environmentIsRead(_ raw: String) throws {
        let receipt = try LegacyReceiptDecoder().decodeReceipt(Self.fullReceipt(environment: raw)).get()
        #expect(receipt.environment == StoreEnvironment(raw: raw))
    }

    @Test func plainTextReceiptIsAcceptedToo() throws {
        let text =
            #"{ "purchase-info" = "ewoidHJhbnNhY3Rpb24taWQiID0gIjMzOTkzMzk5IjsKfQo="; "environment" = "Sandbox"; }"#
        let receipt = try LegacyReceiptDecoder().decodeReceipt(text).get()
        #expect(receipt.transactionID == "33993399")
        #expect(receipt.environment == .sandbox)
    }

    @Test(arguments: [
        ("{ \"environment\" = \"Sandbox\"; }", "no purchase-info"),
        ("{ \"purchase-info\" = \"%%%\"; }", "purchase-info is not base64"),
        ("( \"a\", \"b\" )", "not a dictionary"),
        ("{ \"purchase-info\" = \"e30=\"; }", "no transaction-id"),  // e30= is "{}"
        (
            "{ \"purchase-info\" = \"eyAidHJhbnNhY3Rpb24taWQiID0gIjEiOyAicXVhbnRpdHkiID0gIm1hbnkiOyB9\"; }",
            "quantity is not an integer"
        ),
        ("{ \"purchase-info\" = ", "not an old-style plist"),
    ])
    func brokenReceiptsAreMalformed(_ text: String, _ reason: String) throws {
        let result = LegacyReceiptDecoder().decode(Data(text.utf8).base64EncodedString())
        guard case .failure(let error) = result else {
            Issue.record("expected a failure for \(reason)")
            return
        }
        #expect(error.kind == .malformed)
        #expect(error.reason.contains(reason), "\(error.reason)")
    }

    @Test func notBase64IsMalformed() {
        for text in ["", "   ", "!!!!", "ewo=ewo=", "e", "ZZZ"] {
            let result = LegacyReceiptDecoder().decode(text)
            #expect(result.failureKind == .malformed, "\(text)")
        }
    }
}

/// The old-style plist grammar.
@Suite("OldStylePlistParser")
struct OldStylePlistParserTests {
    private func parse(_ text: String) throws -> OldStylePlist {
        try OldStylePlistParser().parse(Array(text.utf8))
    }

    @Test func parsesEveryValueKind() throws {
        let value = try parse(
            """
            // a comment
            { /* block
               comment */
              quoted = "a \\"b\\" \\\\ c\\n\\U00e9\\101";
              unquoted = com.example.app-1_2$+/:;
              list = ( one, "two", (three), { k = v; }, );
              blob = <0fA1 b2>;
              "last" = x
            }
            """)
        let dictionary = try #require(value.dictionary)
        #expect(dictionary["quoted"] == .string("a \"b\" \\ c\néA"))
        #expect(dictionary["unquoted"] == .string("com.example.app-1_2$+/:"))
        #expect(
            dictionary["list"]
                == .array([
                    .string("one"), .string("two"), .array([.string("three")]), .dictionary(["k": .string("v")]),
                ]))
        #expect(dictionary["blob"] == .data([0x0F, 0xA1, 0xB2]))
        #expect(dictionary["last"] == .string("x"))
    }

    @Test(arguments: [
        "{ a = b; ", "{ a b; }", "{ a = b; } extra", "\"unterminated", "<0f1>", "<zz>", "{ = b; }", "( a b )",
        "/* open", "{ a = b; ;", "#", "\"\\U\"",
    ])
    func rejectsBrokenText(_ text: String) {
        #expect(throws: OldStylePlistError.self) { try parse(text) }
    }

    @Test func depthIsBounded() throws {
        let shallow = String(repeating: "(", count: 16) + String(repeating: ")", count: 16)
        #expect(throws: Never.self) { try parse(shallow) }
        for depth in [17, 1_000, 200_000] {
            let deep = String(repeating: "{a=", count: depth) + "b" + String(repeating: ";}", count: depth)
            #expect(throws: OldStylePlistError.self) { try parse(deep) }
        }
    }

    @Test func valueCountAndSizeAreBounded() {
        let many = "(" + Array(repeating: "a", count: 20_000).joined(separator: ",") + ")"
        #expect(throws: OldStylePlistError.self) { try parse(many) }
        let huge = "\"" + String(repeating: "x", count: (1 << 20) + 1) + "\""
        #expect(throws: OldStylePlistError.self) { try parse(huge) }
    }

    @Test func invalidUTF8InAStringIsRejected() {
        #expect(throws: OldStylePlistError.self) {
            try OldStylePlistParser().parse([UInt8(ascii: "\""), 0xFF, 0xFE, UInt8(ascii: "\"")])
        }
    }
}

/// Date parsing used by both receipt decoders.
@Suite("ReceiptDates")
struct ReceiptDatesTests {
    @Test(arguments: [
        ("2023-10-19T01:45:36Z", Int64(1_697_679_936_000)),
        ("2023-11-19T01:45:36Z", 1_700_358_336_000),
        ("2023-10-19T01:45:36.123Z", 1_697_679_936_123),
        ("2023-10-19T01:45:36.5Z", 1_697_679_936_500),
        ("2023-10-18T18:45:36-07:00", 1_697_679_936_000),
        ("2023-10-19T03:45:36+0200", 1_697_679_936_000),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59Z", -1000),
        ("2024-02-29T00:00:00Z", 1_709_164_800_000),
        ("4001-01-01T00:00:00Z", 64_092_211_200_000),
    ])
    func rfc3339(_ text: String, _ millis: Int64) {
        #expect(ReceiptDates.rfc3339Millis(text) == millis)
    }

    @Test(arguments: [
        "", "2023-10-19", "2023-13-19T01:45:36Z", "2023-02-29T01:45:36Z", "2023-10-19T24:00:00Z",
        "2023-10-19T01:45:36", "2023-10-19T01:45:36Zjunk", "２０２３-10-19T01:45:36Z", "2023-10-19T01:45:36.Z",
    ])
    func rfc3339Rejects(_ text: String) {
        #expect(ReceiptDates.rfc3339Millis(text) == nil)
    }

    @Test func legacyGMT() {
        #expect(ReceiptDates.legacyGMTMillis("2013-05-20 18:01:01 Etc/GMT") == 1_369_072_861_000)
        #expect(ReceiptDates.legacyGMTMillis("2013-05-20 11:01:01 America/Los_Angeles") == nil)
    }
}

extension Result where Failure == ReceiptDecodingError {
    /// The error kind of a failure, nil for a success.
    var failureKind: ReceiptDecodingError.Kind? {
        if case .failure(let error) = self { return error.kind }
        return nil
    }
}
