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

/// Fixtures, fixed times and test authorities shared by the receipt tests.
enum ReceiptFixtures {
    /// The fixture directory inside the test bundle.
    static func url(_ relativePath: String) throws -> URL {
        let base = try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures")
        return base.appendingPathComponent(relativePath)
    }

    /// A fixture file's text, without trailing line breaks.
    static func text(_ relativePath: String) throws -> String {
        let raw = try String(contentsOf: url(relativePath), encoding: .utf8)
        return raw.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A fixture file's bytes.
    static func bytes(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url(relativePath)))
    }

    /// Apple's mock signed data (`apple-server-library/mock_signed_data/NAME`).
    static func mock(_ name: String) throws -> String {
        try text("apple-server-library/mock_signed_data/\(name)")
    }

    /// Apple's Xcode fixtures (`apple-server-library/xcode/NAME`).
    static func xcode(_ name: String) throws -> String {
        try text("apple-server-library/xcode/\(name)")
    }

    /// A trust store holding only Apple's test CA (`certs/testCA.der`), which signs the mock JWS.
    static func testCATrust() throws -> TrustStore {
        try TrustStore(roots: []).adding(der: bytes("apple-server-library/certs/testCA.der"))
    }

    /// 2025-01-01T00:00:00Z: inside the test CA's validity (2023-01-05 to 2033-01-02), used as
    /// "now" so the mock payloads without `signedDate` verify the same way in any year.
    static let fixedNow = Date(timeIntervalSince1970: 1_735_689_600)

    /// 2026-01-01T00:00:00Z in ms: the `signedDate` of generated payloads.
    static let signedDate: Int64 = 1_767_225_600_000
}

/// Test signing authorities, built once (key derivation and certificate signing are not free).
enum TestAuthorities {
    /// The default valid chain (2020-01-01 to 2045-01-01).
    static let standard: SigningAuthority? = try? SigningAuthority()
    /// Another organisation's chain: valid in itself, but not trusted by the tests' verifiers.
    static let stranger: SigningAuthority? = try? SigningAuthority(
        options: .init(seed: "stranger", organization: "Not Apple At All"))
    /// A chain whose leaf expired on 2025-01-01.
    static let expiredLeaf: SigningAuthority? = try? SigningAuthority(
        options: .init(seed: "expired", leafNotValidAfter: Date(timeIntervalSince1970: 1_735_689_600)))
    /// A chain whose intermediate lacks Apple's WWDR marker extension.
    static let noIntermediateMarker: SigningAuthority? = try? SigningAuthority(
        options: .init(seed: "no-intermediate-marker", intermediateMarker: false))
    /// A chain whose leaf lacks Apple's StoreKit marker extension.
    static let noLeafMarker: SigningAuthority? = try? SigningAuthority(
        options: .init(seed: "no-leaf-marker", leafMarker: false))

    /// Unwraps an authority or fails the test.
    static func unwrap(_ authority: SigningAuthority?) throws -> SigningAuthority {
        try #require(authority, "test authority could not be built")
    }

    /// A verifier trusting exactly `authorities`' roots, "now" pinned to ``ReceiptFixtures/fixedNow``.
    static func verifier(
        trusting authorities: [SigningAuthority], bundles: Set<String> = [], environment: StoreEnvironment? = nil
    ) -> SignedDataVerifier {
        SignedDataVerifier(
            trust: TrustStore(roots: authorities.map(\.root)), expectedBundleIDs: bundles,
            expectedEnvironment: environment, clock: ManualClock(ReceiptFixtures.fixedNow))
    }

    /// A typical production transaction payload.
    static func transaction(
        id: String = "2000000123", bundle: String = "com.example.app", environment: String = "Production",
        signedDate: Int64 = ReceiptFixtures.signedDate
    ) -> JWSTransactionDecodedPayload {
        JWSTransactionDecodedPayload(
            transactionId: id, originalTransactionId: "2000000100", webOrderLineItemId: "99",
            bundleId: bundle, productId: "com.example.app.gems", purchaseDate: signedDate - 1000,
            originalPurchaseDate: signedDate - 86_400_000, quantity: 3, type: "Consumable",
            appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138", inAppOwnershipType: "PURCHASED",
            signedDate: signedDate, environment: environment, storefront: "JPN", storefrontId: "143462",
            transactionReason: "PURCHASE", price: 160_000, currency: "JPY")
    }
}

typealias SeededGenerator = SplitMix64

extension Array where Element == UInt8 {
    /// Base64 (standard alphabet, padded).
    var base64: String { Data(self).base64EncodedString() }
}
