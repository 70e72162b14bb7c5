import Crypto
import Foundation
import Testing
@_spi(CMS) import X509

@testable import AppStoreTestSigning
@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// A minimal DER writer for building receipt payloads in tests.
enum TestDER {
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { AppReceiptBuilder.tlv(tag, content) }
    static func integer(_ value: Int64) -> [UInt8] { AppReceiptBuilder.integer(value) }
    static func utf8(_ text: String) -> [UInt8] { AppReceiptBuilder.utf8(text) }
    static func ia5(_ text: String) -> [UInt8] { AppReceiptBuilder.ia5(text) }
    static func attribute(_ type: Int64, _ value: [UInt8]) -> [UInt8] { AppReceiptBuilder.attribute(type, value) }
    static func set(_ members: [[UInt8]]) -> [UInt8] { AppReceiptBuilder.set(members) }

    /// A production receipt payload with two in-app purchases (one refunded).
    static func productionPayload(bundle: String = "com.example.app") -> [UInt8] {
        let first = set([
            attribute(1701, integer(1)),
            attribute(1702, utf8("com.example.app.pro")),
            attribute(1703, utf8("1000000900000001")),
            attribute(1705, utf8("1000000900000001")),
            attribute(1704, ia5("2025-03-01T10:00:00Z")),
            attribute(1706, ia5("2025-03-01T10:00:00Z")),
            attribute(1708, ia5("")),
            attribute(1711, integer(0)),
            attribute(1713, integer(0)),
        ])
        let second = set([
            attribute(1701, integer(5)),
            attribute(1702, utf8("com.example.app.gems")),
            attribute(1703, utf8("1000000900000002")),
            attribute(1705, utf8("1000000900000002")),
            attribute(1704, ia5("2025-03-02T10:00:00.250Z")),
            attribute(1712, ia5("2025-03-03T10:00:00Z")),
            attribute(1711, integer(20_000_000_000)),
            attribute(9999, [0xDE, 0xAD]),  // unknown types are skipped
        ])
        return set([
            attribute(0, utf8("Production")),
            attribute(2, utf8(bundle)),
            attribute(3, utf8("2.1")),
            attribute(4, [1, 2, 3, 4]),
            attribute(5, Array(repeating: 7, count: 20)),
            attribute(12, ia5("2025-03-04T00:00:00Z")),
            attribute(19, utf8("1.0")),
            attribute(17, first),
            attribute(17, second),
        ])
    }

    /// A CMS SignedData (attached content) of `payload`, signed by `authority`'s leaf.
    static func signedReceipt(_ payload: [UInt8], authority: SigningAuthority) throws -> [UInt8] {
        try CMS.sign(
            payload, signatureAlgorithm: .ecdsaWithSHA256, additionalIntermediateCertificates: [authority.intermediate],
            certificate: authority.leaf, privateKey: Certificate.PrivateKey(authority.leafKey),
            signingTime: Date(timeIntervalSince1970: 1_741_046_400), detached: false)
    }
}

/// PKCS#7 app receipts: Xcode's fixtures (BER, indefinite lengths) and CMS built at test time.
@Suite("AppReceiptDecoder")
struct AppReceiptDecoderTests {
    @Test func xcodeEmptyReceipt() async throws {
        let evidence = try await AppReceiptDecoder().decode(ReceiptFixtures.xcode("xcode-app-receipt-empty")).get()
        #expect(evidence.format == .appReceipt)
        #expect(evidence.bundleID == "com.example.naturelab.backyardbirds.example")
        #expect(evidence.receiptType == "Xcode")
        #expect(evidence.environment == .xcode)
        #expect(evidence.entries.isEmpty)
        #expect(evidence.signature == .untrusted, "\(evidence.signatureDetail ?? "")")
        #expect(evidence.signatureDetail?.contains("StoreKit") == true)
    }

    @Test func xcodeReceiptWithTransaction() async throws {
        let data = try ReceiptFixtures.xcode("xcode-app-receipt-with-transaction")
        let evidence = try await AppReceiptDecoder().decode(data).get()
        #expect(evidence.bundleID == "com.example.naturelab.backyardbirds.example")
        #expect(evidence.environment == .xcode)
        #expect(evidence.appVersion == "1")
        #expect(evidence.creationDate == 1_697_679_940_000)  // 2023-10-19T01:45:40Z
        #expect(evidence.signature == .untrusted)
        #expect(evidence.entries.count == 1)
        let entry = try #require(evidence.entries.first)
        #expect(entry.productID == "pass.premium")
        #expect(entry.transactionID == "0")
        #expect(entry.quantity == 1)
        #expect(entry.purchaseDate == 1_697_679_936_000)  // 2023-10-19T01:45:36Z
        #expect(entry.expiresDate == 1_700_358_336_000)  // 2023-11-19T01:45:36Z

        let receipt = try AppReceiptDecoder().decodeReceipt(data).get()
        #expect(receipt.inAppPurchases.first?.isInIntroOfferPeriod == true)
        #expect(receipt.expirationDate == 64_092_211_200_000)  // 4001-01-01
    }

    @Test func xcodeReceiptIsNotVerifiedEvenIfItsCertificateIsTrusted() async throws {
        let data = try ReceiptFixtures.xcode("xcode-app-receipt-with-transaction")
        let der = try #require(ReceiptBase64.decode(data, alphabet: .standard))
        // Pull the StoreKit certificate out of the CMS and trust it: Apple's chain policy still refuses it.
        let signedData = try #require(try? Certificate(derEncoded: Array(der[442..<(442 + 888)])))
        let decoder = AppReceiptDecoder(trust: TrustStore(roots: [signedData]))
        let evidence = try await decoder.decode(data).get()
        #expect(evidence.signature == .untrusted)
    }

    @Test func signatureCheckCanBeSwitchedOff() async throws {
        let evidence = try await AppReceiptDecoder(checksSignature: false)
            .decode(ReceiptFixtures.xcode("xcode-app-receipt-empty")).get()
        #expect(evidence.signature == .notChecked)
    }

    @Test func generatedProductionReceiptVerifiesAgainstItsRoot() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let cms = try TestDER.signedReceipt(TestDER.productionPayload(), authority: authority)
        let decoder = AppReceiptDecoder(trust: TrustStore(roots: [authority.root]))
        let evidence = try await decoder.decode(cms.base64).get()
        #expect(evidence.signature == .verified, "\(evidence.signatureDetail ?? "")")
        #expect(evidence.signatureDetail == nil)
        #expect(evidence.environment == .production)
        #expect(evidence.receiptType == "Production")
        #expect(evidence.bundleID == "com.example.app")
        #expect(evidence.appVersion == "2.1")
        #expect(evidence.originalAppVersion == "1.0")
        #expect(evidence.creationDate == 1_741_046_400_000)
        #expect(evidence.entries.count == 2)
        let first = evidence.entries[0]
        #expect(first.transactionID == "1000000900000001")
        #expect(first.productID == "com.example.app.pro")
        #expect(first.quantity == 1)
        #expect(first.purchaseDate == 1_740_823_200_000)
        #expect(first.expiresDate == nil)
        #expect(first.webOrderLineItemID == "0")
        let second = evidence.entries[1]
        #expect(second.quantity == 5)
        #expect(second.purchaseDate == 1_740_909_600_250)
        #expect(second.cancellationDate == 1_740_996_000_000)
        #expect(second.webOrderLineItemID == "20000000000")
    }

    @Test func generatedReceiptIsUntrustedUnderOtherRoots() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.stranger)
        let cms = try TestDER.signedReceipt(TestDER.productionPayload(), authority: authority)
        for trust in [TrustStore.apple, TrustStore(roots: [try TestAuthorities.unwrap(TestAuthorities.standard).root])]
        {
            let evidence = try await AppReceiptDecoder(trust: trust).decode(cms.base64).get()
            #expect(evidence.signature == .untrusted)
            // Still decoded: a forged "Production" receipt is visible, but flagged as not authentic.
            #expect(evidence.entries.count == 2)
        }
    }

    @Test func generatedReceiptWithoutMarkerIsUntrusted() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.noLeafMarker)
        let cms = try TestDER.signedReceipt(TestDER.productionPayload(), authority: authority)
        let evidence = try await AppReceiptDecoder(trust: TrustStore(roots: [authority.root])).decode(cms.base64).get()
        #expect(evidence.signature == .untrusted)
        #expect(evidence.signatureDetail?.contains("1.2.840.113635.100.6.11.1") == true)
    }

    @Test func tamperedContentFailsTheSignature() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        var cms = try TestDER.signedReceipt(TestDER.productionPayload(bundle: "com.example.app"), authority: authority)
        // Rewrite the bundle id in place (same length): the digest no longer matches.
        let needle = Array("com.example.app".utf8)
        let at = try #require(
            (0...(cms.count - needle.count)).first { cms[$0..<($0 + needle.count)].elementsEqual(needle) })
        cms.replaceSubrange(at..<(at + needle.count), with: Array("com.evil.appxxx".utf8))
        let evidence = try await AppReceiptDecoder(trust: TrustStore(roots: [authority.root])).decode(cms.base64).get()
        #expect(evidence.bundleID == "com.evil.appxxx")
        #expect(evidence.signature == .invalid)
        #expect(evidence.signatureDetail?.contains("message digest") == true)
    }

    @Test func tooManyBundledCertificatesAreRefusedBeforeChainBuilding() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let cms = try CMS.sign(
            TestDER.productionPayload(), signatureAlgorithm: .ecdsaWithSHA256,
            additionalIntermediateCertificates: Array(repeating: authority.intermediate, count: 7),
            certificate: authority.leaf, privateKey: Certificate.PrivateKey(authority.leafKey), detached: false)
        let evidence = try await AppReceiptDecoder(trust: TrustStore(roots: [authority.root])).decode(cms.base64).get()
        #expect(evidence.signature == .invalid)
        #expect(evidence.signatureDetail?.contains("8 certificates") == true)
    }

    @Test func expiredSignerAtCreationDateIsUntrusted() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.expiredLeaf)  // leaf ends 2025-01-01
        let cms = try TestDER.signedReceipt(TestDER.productionPayload(), authority: authority)  // created 2025-03-04
        let evidence = try await AppReceiptDecoder(trust: TrustStore(roots: [authority.root])).decode(cms.base64).get()
        #expect(evidence.signature == .untrusted)
    }

    @Test(arguments: [
        ("ProductionSandbox", StoreEnvironment.sandbox), ("Production", .production), ("Xcode", .xcode),
        ("ProductionVPP", .production), ("ProductionVPPSandbox", .sandbox), ("Weird", .unknown("Weird")),
    ])
    func receiptTypeMapsToEnvironment(_ type: String, _ environment: StoreEnvironment) {
        #expect(AppReceipt(receiptType: type).environment == environment)
    }

    @Test func entryWithoutTransactionIDIsMalformed() throws {
        let payload = TestDER.set([
            TestDER.attribute(2, TestDER.utf8("com.example.app")),
            TestDER.attribute(17, TestDER.set([TestDER.attribute(1702, TestDER.utf8("p"))])),
        ])
        let contentInfo = TestDER.wrapUnsigned(payload)
        let result = AppReceiptDecoder().decodeReceipt(contentInfo.base64)
        guard case .failure(let error) = result else {
            Issue.record("expected failure")
            return
        }
        #expect(error.kind == .malformed)
        #expect(error.reason.contains("no transaction id"))
    }

    @Test func unsignedStructureDecodesButIsNotVerified() async throws {
        let contentInfo = TestDER.wrapUnsigned(TestDER.productionPayload())
        let evidence = try await AppReceiptDecoder().decode(contentInfo.base64).get()
        #expect(evidence.entries.count == 2)
        #expect(evidence.signature == .invalid)
    }

    @Test func integersDecodeLikeDER() {
        #expect(AppReceiptDecoder.signedInteger([0x00]) == 0)
        #expect(AppReceiptDecoder.signedInteger([0x7F]) == 127)
        #expect(AppReceiptDecoder.signedInteger([0x00, 0x80]) == 128)
        #expect(AppReceiptDecoder.signedInteger([0xFF]) == -1)
        #expect(AppReceiptDecoder.signedInteger([0xFF, 0x7F]) == -129)
        #expect(AppReceiptDecoder.signedInteger([0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) == nil)
        #expect(AppReceiptDecoder.signedInteger([0x00, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) == Int64.max)
        #expect(AppReceiptDecoder.signedInteger([0x01, 0, 0, 0, 0, 0, 0, 0, 0]) == nil)
        #expect(AppReceiptDecoder.signedInteger([]) == nil)
    }
}

extension TestDER {
    /// ContentInfo → SignedData with the payload attached but no certificates or signers.
    static func wrapUnsigned(_ payload: [UInt8]) -> [UInt8] {
        let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        let dataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
        let encap = tlv(0x30, dataOID + tlv(0xA0, tlv(0x04, payload)))
        let signedData = tlv(0x30, integer(1) + tlv(0x31, []) + encap + tlv(0x31, []))
        return tlv(0x30, signedDataOID + tlv(0xA0, signedData))
    }
}
