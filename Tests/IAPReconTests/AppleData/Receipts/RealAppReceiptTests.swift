import AppStoreTestSigning
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

/// App receipts that Apple signed (BER, `sha1WithRSAEncryption`, chain through the WWDR G1
/// intermediate that expired in 2023) verify offline with only Apple's roots, at their creation
/// date, and decode to what they hold; one changed byte of signed content fails.
@Suite("Real Apple app receipts")
struct RealAppReceiptTests {
    struct Expected: Sendable, CustomStringConvertible {
        var file: String
        var receiptType: String
        var environment: StoreEnvironment
        var bundleID: String
        var appVersion: String
        var creationDate: Int64
        var entries: Int
        var description: String { file }
    }

    static let receipts: [Expected] = [
        Expected(
            file: "nutcall-sandbox-sha1-187", receiptType: "ProductionSandbox", environment: .sandbox,
            bundleID: "com.nutcall.alert", appVersion: "32", creationDate: 1_588_789_729_000, entries: 187),
        Expected(
            file: "mindnode-ios-sandbox-empty", receiptType: "ProductionSandbox", environment: .sandbox,
            bundleID: "com.mindnode.mindnodetouch", appVersion: "3394", creationDate: 1_505_122_714_000, entries: 0),
        Expected(
            file: "mindnode-mac-production-empty", receiptType: "Production", environment: .production,
            bundleID: "com.ideasoncanvas.MindNodeMac", appVersion: "2.5.5", creationDate: 1_504_515_680_000,
            entries: 0),
    ]

    static func data(_ file: String) throws -> String {
        try ReceiptFixtures.text("real-receipts/\(file).b64")
    }

    @Test(arguments: receipts)
    func verifiesWithApplesDefaultRootsAndDecodes(_ expected: Expected) async throws {
        let evidence = try await AppReceiptDecoder().decode(Self.data(expected.file)).get()
        #expect(evidence.signature == .verified, "\(evidence.signatureDetail ?? "")")
        #expect(evidence.signatureDetail == nil)
        #expect(evidence.receiptType == expected.receiptType)
        #expect(evidence.environment == expected.environment)
        #expect(evidence.bundleID == expected.bundleID)
        #expect(evidence.appVersion == expected.appVersion)
        #expect(evidence.creationDate == expected.creationDate)
        #expect(evidence.entries.count == expected.entries)
    }

    @Test func nutcallEntriesAreAllThere() async throws {
        let evidence = try await AppReceiptDecoder().decode(Self.data("nutcall-sandbox-sha1-187")).get()
        let entries = evidence.entries
        #expect(Set(entries.map(\.transactionID)).count == 187)
        #expect(entries.allSatisfy { $0.cancellationDate == nil })
        #expect(entries.allSatisfy { $0.originalTransactionID == "1000000603177571" })
        var products: [String: Int] = [:]
        for entry in entries { products[entry.productID ?? "", default: 0] += 1 }
        #expect(
            products == [
                "com.nutcallalert.inapp.optimum": 116, "com.nutcallalert.inapp.pro": 39,
                "com.nutcallalert.inapp.lite": 32,
            ])
        let first = try #require(entries.first)
        #expect(first.transactionID == "1000000637840752")
        #expect(first.purchaseDate == 1_575_982_498_000)  // 2019-12-10T12:54:58Z
        #expect(first.expiresDate == 1_575_982_798_000)  // 12:59:58Z
        // Transaction ids are not in time order.
        let later = try #require(entries.first { $0.transactionID == "1000000637840731" })
        #expect(later.purchaseDate == 1_575_982_798_000)
    }

    @Test(arguments: receipts)
    func oneChangedByteOfSignedContentFails(_ expected: Expected) async throws {
        var bytes = try #require(ReceiptBase64.decode(Self.data(expected.file), alphabet: .standard))
        // Change the last character of the bundle id inside the signed content: it still decodes.
        let needle = Array(expected.bundleID.utf8)
        let at = try #require(
            (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) })
        bytes[at + needle.count - 1] ^= 0x01
        let evidence = try await AppReceiptDecoder().decode(Data(bytes).base64EncodedString()).get()
        #expect(evidence.bundleID != expected.bundleID)
        #expect(evidence.signature == .invalid)
        #expect(evidence.signatureDetail?.contains("signature does not match") == true)
    }

    @Test func theChainIsCheckedAtTheReceiptsCreationDateNotToday() async throws {
        let data = try Self.data("mindnode-mac-production-empty")
        let bytes = try #require(ReceiptBase64.decode(data, alphabet: .standard))
        // Today the WWDR G1 intermediate has expired: checked now, the chain would not hold.
        let (now, _) = await AppReceiptSignature.check(
            bytes, trust: .apple, at: Date(timeIntervalSince1970: 1_767_225_600))
        #expect(now == .untrusted)
        // Without Apple Root CA trusted, Apple's own receipt does not verify.
        let g3Only = try #require(TrustStore.appleRootCAG3)
        let evidence = try await AppReceiptDecoder(trust: TrustStore(roots: [g3Only])).decode(data).get()
        #expect(evidence.signature == .untrusted)
    }
}

/// Receipts signed like Apple's newer ones (RSA SHA-256) and older ones (RSA SHA-1), by a chain of
/// our own, with and without signed attributes.
@Suite("RSA-signed app receipts")
struct RSAAppReceiptTests {
    static let chain: RSAReceiptSigningChain? = try? RSAReceiptSigningChain()

    struct Variant: Sendable, CustomStringConvertible {
        var sha1: Bool
        var signedAttributes: Bool
        var description: String { "\(sha1 ? "SHA-1" : "SHA-256")\(signedAttributes ? " with signed attributes" : "")" }
    }

    static let variants = [
        Variant(sha1: false, signedAttributes: false), Variant(sha1: false, signedAttributes: true),
        Variant(sha1: true, signedAttributes: false), Variant(sha1: true, signedAttributes: true),
    ]

    static func receipt(_ variant: Variant, chain: RSAReceiptSigningChain) throws -> String {
        try AppReceiptBuilder.base64Receipt(
            bundleID: "com.example.app", receiptType: "Production", createdAt: 1_795_000_000_000,
            purchases: [.init(productID: "coins", quantity: 2, transactionID: "9001", purchaseDate: 1_794_999_000_000)],
            rsaChain: chain, sha1: variant.sha1, signedAttributes: variant.signedAttributes)
    }

    @Test(arguments: variants)
    func verifiesUnderTrustedRootFile(_ variant: Variant) async throws {
        let chain = try #require(Self.chain)
        let data = try Self.receipt(variant, chain: chain)
        let rootFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("receipt-root-\(UUID().uuidString).der")
        try Data(chain.rootDER).write(to: rootFile)
        defer { try? FileManager.default.removeItem(at: rootFile) }
        // What `--trusted-root FILE` builds: Apple's roots plus the file's.
        let trust = try TrustStore.loading(files: [rootFile.path])
        let evidence = try await AppReceiptDecoder(trust: trust).decode(data).get()
        #expect(evidence.signature == .verified, "\(evidence.signatureDetail ?? "")")
        #expect(evidence.entries.map(\.transactionID) == ["9001"])
        // Apple's roots alone do not vouch for it.
        let untrusted = try await AppReceiptDecoder().decode(data).get()
        #expect(untrusted.signature == .untrusted)
    }

    @Test(arguments: variants)
    func oneChangedByteFails(_ variant: Variant) async throws {
        let chain = try #require(Self.chain)
        var bytes = try #require(ReceiptBase64.decode(try Self.receipt(variant, chain: chain), alphabet: .standard))
        let needle = Array("com.example.app".utf8)
        let at = try #require(
            (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) })
        bytes[at] ^= 0x01
        let trust = TrustStore.apple.adding([chain.root])
        let evidence = try await AppReceiptDecoder(trust: trust).decode(Data(bytes).base64EncodedString()).get()
        #expect(evidence.signature == .invalid)
    }
}
