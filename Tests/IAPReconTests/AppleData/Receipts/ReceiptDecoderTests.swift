import Crypto
import Foundation
import Testing

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

/// The single entry point: dispatch on format, and what becomes evidence vs failure.
@Suite("ReceiptDecoder")
struct ReceiptDecoderTests {
    private func decoder(trusting authorities: [SigningAuthority] = [], bundles: Set<String> = ["com.example.app"])
        -> ReceiptDecoder
    {
        ReceiptDecoder(trust: TrustStore.apple.adding(authorities.map(\.root)), expectedBundleIDs: bundles)
    }

    private func upload(_ format: ReceiptFormat, _ data: String) -> UploadedReceipt {
        UploadedReceipt(receiptID: "r-1", userID: "u-1", format: format, data: data)
    }

    @Test func transactionReceiptDispatchesToTheLegacyDecoder() async throws {
        let evidence = try await decoder().decode(
            upload(.transactionReceipt, ReceiptFixtures.mock("legacyTransaction"))
        ).get()
        #expect(evidence.format == .transactionReceipt)
        #expect(evidence.signature == .notChecked)
        #expect(evidence.entries.map(\.transactionID) == ["33993399"])
    }

    @Test func appReceiptDispatchesToThePKCS7Decoder() async throws {
        let evidence = try await decoder()
            .decode(upload(.appReceipt, ReceiptFixtures.xcode("xcode-app-receipt-with-transaction"))).get()
        #expect(evidence.format == .appReceipt)
        #expect(evidence.environment == .xcode)
        #expect(evidence.signature == .untrusted)
        #expect(evidence.entries.map(\.productID) == ["pass.premium"])
    }

    @Test func generatedAppReceiptIsVerifiedWithItsRootTrusted() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let cms = try TestDER.signedReceipt(TestDER.productionPayload(), authority: authority)
        let evidence = try await decoder(trusting: [authority]).decode(upload(.appReceipt, cms.base64)).get()
        #expect(evidence.signature == .verified)
        #expect(evidence.environment == .production)
    }

    @Test func validSignedTransactionBecomesVerifiedEvidence() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let jws = try JWSSigner.sign(payload: TestAuthorities.transaction(), authority: authority)
        let decoder = decoder(trusting: [authority])
        // Clients add line breaks; they are not part of the JWS.
        let evidence = try await decoder.decode(upload(.signedTransaction, jws + "\n")).get()
        #expect(evidence.format == .signedTransaction)
        #expect(evidence.signature == .verified)
        #expect(evidence.environment == .production)
        #expect(evidence.bundleID == "com.example.app")
        #expect(evidence.creationDate == ReceiptFixtures.signedDate)
        #expect(decoder.isExpectedBundle(evidence))
        let entry = try #require(evidence.entries.first)
        #expect(entry.transactionID == "2000000123")
        #expect(entry.price == Money(milliunits: 160_000, currency: "JPY"))
        #expect(entry.productType == "Consumable")
        #expect(entry.storefront == "JPN")
    }

    @Test func appleMockTransactionDecodesWithTestCATrusted() async throws {
        let decoder = ReceiptDecoder(trust: try ReceiptFixtures.testCATrust(), expectedBundleIDs: ["com.example"])
        let evidence = try await decoder.decode(upload(.signedTransaction, ReceiptFixtures.mock("transactionInfo")))
            .get()
        #expect(evidence.bundleID == "com.example")
        #expect(evidence.environment == .sandbox)
        #expect(evidence.entries.isEmpty)  // the mock names no transactionId
    }

    @Test func bundleMismatchIsEvidenceNotAFailure() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let jws = try JWSSigner.sign(
            payload: TestAuthorities.transaction(bundle: "com.other.app"), authority: authority)
        let decoder = decoder(trusting: [authority])
        let evidence = try await decoder.decode(upload(.signedTransaction, jws)).get()
        #expect(evidence.bundleID == "com.other.app")
        #expect(!decoder.isExpectedBundle(evidence))
    }

    @Test func sandboxTransactionIsEvidenceWithItsEnvironment() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let jws = try JWSSigner.sign(payload: TestAuthorities.transaction(environment: "Sandbox"), authority: authority)
        let evidence = try await decoder(trusting: [authority]).decode(upload(.signedTransaction, jws)).get()
        #expect(evidence.environment == .sandbox)
        #expect(evidence.environment?.isProduction == false)
    }

    @Test func untrustedChainIsAFailure() async throws {
        let stranger = try TestAuthorities.unwrap(TestAuthorities.stranger)
        let jws = try JWSSigner.sign(payload: TestAuthorities.transaction(), authority: stranger)
        let result = await decoder().decode(upload(.signedTransaction, jws))
        #expect(result.failureKind == .untrustedChain)
    }

    /// Apple documents environment `Xcode` for StoreKit testing in Xcode: a test purchase, kept as
    /// untrusted evidence (never revenue) rather than dropped as a chain failure.
    @Test func xcodeSignedTransactionIsUntrustedEvidenceOfATestPurchase() async throws {
        let result = await decoder().decode(
            upload(.signedTransaction, try ReceiptFixtures.xcode("xcode-signed-transaction")))
        let evidence = try result.get()
        #expect(evidence.signature == .untrusted)
        #expect(evidence.environment == .xcode)
        #expect(evidence.entries.map(\.transactionID) == ["0"])
        #expect(evidence.entries.first?.productID == "pass.premium")
    }

    @Test(arguments: [
        (JWSSigner.Options(corruptSignature: true), ReceiptDecodingError.Kind.badSignature),
        (JWSSigner.Options(algorithm: "HS256"), .badSignature),
        (JWSSigner.Options(algorithm: "none"), .badSignature),
        (JWSSigner.Options(chain: .none), .untrustedChain),
        (JWSSigner.Options(chain: .leafAndIntermediate), .untrustedChain),
    ])
    func brokenJWSFailWithTheRightKind(_ options: JWSSigner.Options, _ kind: ReceiptDecodingError.Kind) async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let jws = try JWSSigner.sign(payload: TestAuthorities.transaction(), authority: authority, options: options)
        let result = await decoder(trusting: [authority]).decode(upload(.signedTransaction, jws))
        #expect(result.failureKind == kind)
        if case .failure(let error) = result {
            #expect(!error.reason.contains("2000000123"), "reasons must not echo the payload")
        }
    }

    @Test(arguments: ReceiptFormat.allCases)
    func garbageIsMalformedForEveryFormat(_ format: ReceiptFormat) async {
        for data in ["", "not a receipt", "a.b.c", "////", "{}", "MIIB"] {
            let result = await decoder().decode(upload(format, data))
            #expect(result.failureKind == .malformed, "\(format) \(data)")
        }
    }

    @Test func expectedBundleCheckWithoutConfiguration() {
        let decoder = ReceiptDecoder(trust: .apple, expectedBundleIDs: [])
        let evidence = ReceiptEvidence(format: .signedTransaction, bundleID: "any", signature: .verified, entries: [])
        #expect(decoder.isExpectedBundle(evidence))
        #expect(
            !self.decoder().isExpectedBundle(ReceiptEvidence(format: .appReceipt, signature: .verified, entries: [])))
    }
}

/// Trusted roots: the embedded Apple roots and `--trusted-root` files.
@Suite("TrustStore")
struct TrustStoreTests {
    @Test func embeddedAppleRootsMatchTheirFingerprintsAndFiles() throws {
        let g3 = try #require(TrustStore.appleRootCAG3)
        let inc = try #require(TrustStore.appleIncRoot)
        let g3DER = try SigningAuthority.der(g3)
        let incDER = try SigningAuthority.der(inc)
        #expect(g3DER == (try ReceiptFixtures.bytes("apple-roots/AppleRootCA-G3.cer")))
        #expect(incDER == (try ReceiptFixtures.bytes("apple-roots/AppleIncRootCertificate.cer")))
        #expect(hex(SHA256Hasher.digest(g3DER)) == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
        #expect(hex(SHA256Hasher.digest(incDER)) == "b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024")
        #expect(TrustStore.apple.roots.count == 2)
    }

    @Test func loadsDERAndPEMFilesOnTopOfApple() throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let stranger = try TestAuthorities.unwrap(TestAuthorities.stranger)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("truststore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let der = directory.appendingPathComponent("root.der")
        let pem = directory.appendingPathComponent("bundle.pem")
        try Data(authority.rootDER).write(to: der)
        try Data(("junk before\n" + stranger.rootPEM + authority.rootPEM).utf8).write(to: pem)

        let store = try TrustStore.loading(files: [der.path, pem.path])
        #expect(store.roots.count == 4)  // Apple's two + two distinct test roots (duplicate dropped)
        #expect(store.roots.contains(authority.root))
        #expect(store.roots.contains(stranger.root))
        let bare = try TrustStore.loading(files: [der.path], includeAppleRoots: false)
        #expect(bare.roots == [authority.root])
    }

    @Test func missingFileIsOneClearError() throws {
        let path = "/nonexistent/dir/root-\(UUID().uuidString).pem"
        do {
            _ = try TrustStore.loading(files: [path])
            Issue.record("expected an error")
        } catch {
            #expect(error.path == path)
            #expect(error.description.contains(path))
            #expect(error.description.hasPrefix("cannot read trusted root file"))
            guard case .unreadable = error.problem else {
                Issue.record("expected unreadable, got \(error.problem)")
                return
            }
        }
    }

    @Test(arguments: [
        Array("hello, not a certificate".utf8), [0x30, 0x03, 0x02, 0x01, 0x01],
        Array("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8),
        Array("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8), [],
    ])
    func nonCertificatesAreRejectedNamingTheFile(_ bytes: [UInt8]) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bad-root-\(UUID().uuidString).crt")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            _ = try TrustStore.loading(files: [url.path])
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains(url.path))
            guard case .notACertificate = error.problem else {
                Issue.record("expected notACertificate, got \(error.problem)")
                return
            }
        }
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}

/// SHA-256 for the fingerprint checks.
enum SHA256Hasher {
    static func digest(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }
}
