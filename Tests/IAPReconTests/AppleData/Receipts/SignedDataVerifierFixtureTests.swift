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

/// Apple's own JWS test vectors (App Store Server Library), with the results Apple's tests assert.
@Suite("SignedDataVerifier on Apple's fixtures")
struct SignedDataVerifierFixtureTests {
    private func verifier(bundles: Set<String> = [], environment: StoreEnvironment? = nil) throws -> SignedDataVerifier
    {
        SignedDataVerifier(
            trust: try ReceiptFixtures.testCATrust(), expectedBundleIDs: bundles, expectedEnvironment: environment,
            clock: ManualClock(ReceiptFixtures.fixedNow))
    }

    @Test func transactionInfoIsValidAtItsSignedDate() async throws {
        let result = try await verifier(bundles: ["com.example"], environment: .sandbox)
            .verifyAndDecodeTransaction(ReceiptFixtures.mock("transactionInfo"))
        let payload = try #require(result.value, "\(String(describing: result.failure))")
        #expect(payload.bundleId == "com.example")
        #expect(payload.environment == "Sandbox")
        #expect(payload.storeEnvironment == .sandbox)
        #expect(payload.signedDate == 1_672_956_154_000)
    }

    @Test func transactionInfoWithAnotherExpectedBundleIsABundleMismatch() async throws {
        let result = try await verifier(bundles: ["com.example.x"])
            .verifyAndDecodeTransaction(ReceiptFixtures.mock("transactionInfo"))
        #expect(result == .invalid(.bundleMismatch(found: "com.example")))
    }

    @Test func transactionInfoIsRejectedByAProductionVerifier() async throws {
        let result = try await verifier(bundles: ["com.example"], environment: .production)
            .verifyAndDecodeTransaction(ReceiptFixtures.mock("transactionInfo"))
        #expect(result == .invalid(.environmentMismatch(found: "Sandbox")))
    }

    @Test func transactionInfoIsUntrustedUnderApplesRealRoots() async throws {
        let verifier = SignedDataVerifier(trust: .apple, clock: ManualClock(ReceiptFixtures.fixedNow))
        let result = await verifier.verifyAndDecodeTransaction(try ReceiptFixtures.mock("transactionInfo"))
        guard case .invalid(.invalidChain) = result else {
            Issue.record("expected invalidChain, got \(result)")
            return
        }
    }

    @Test func renewalInfoIsValidSandbox() async throws {
        let result = try await verifier(bundles: ["com.example"], environment: .sandbox)
            .verifyAndDecodeRenewalInfo(ReceiptFixtures.mock("renewalInfo"))
        let payload = try #require(result.value, "\(String(describing: result.failure))")
        #expect(payload.environment == "Sandbox")
        #expect(payload.signedDate == 1_672_956_154_000)
    }

    @Test func testNotificationIsValid() async throws {
        let result = try await verifier(bundles: ["com.example"], environment: .sandbox)
            .verifyAndDecodeNotification(ReceiptFixtures.mock("testNotification"))
        let payload = try #require(result.value, "\(String(describing: result.failure))")
        #expect(payload.notificationType == "TEST")
        #expect(payload.notificationUUID == "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6")
        #expect(payload.data?.appAppleId == 1234)
        #expect(payload.data?.bundleId == "com.example")
        #expect(payload.storeEnvironment == .sandbox)
        #expect(payload.signedDate == 1_681_314_324_000)
    }

    @Test func testNotificationIsRejectedByAProductionVerifier() async throws {
        let result = try await verifier(bundles: ["com.example"], environment: .production)
            .verifyAndDecodeNotification(ReceiptFixtures.mock("testNotification"))
        #expect(result == .invalid(.environmentMismatch(found: "Sandbox")))
    }

    @Test func wrongBundleIdIsABundleMismatch() async throws {
        let result = try await verifier(bundles: ["com.example"])
            .verifyAndDecodeNotification(ReceiptFixtures.mock("wrongBundleId"))
        #expect(result == .invalid(.bundleMismatch(found: "com.example.wrong")))
    }

    @Test func wrongBundleIdWithoutExpectationsIsValid() async throws {
        let result = try await verifier().verifyAndDecodeNotification(ReceiptFixtures.mock("wrongBundleId"))
        #expect(result.value?.data?.bundleId == "com.example.wrong")
    }

    @Test func missingX5CHeaderClaimIsRejected() async throws {
        let result = try await verifier().verifyAndDecodeNotification(ReceiptFixtures.mock("missingX5CHeaderClaim"))
        #expect(result == .invalid(.missingX5C))
    }

    @Test(arguments: ["a.b.c.d", "a.b.c", "", ".", "..", "a..c", "...", "a.b"])
    func nonJWSStringsAreMalformed(_ text: String) async throws {
        let result = try await verifier().verifyAndDecodeTransaction(text)
        guard case .invalid(.malformed) = result else {
            Issue.record("expected malformed for '\(text)', got \(result)")
            return
        }
    }

    @Test func xcodeSignedTransactionIsNeverTrusted() async throws {
        let jws = try ReceiptFixtures.xcode("xcode-signed-transaction")
        for environment in [StoreEnvironment.production, .xcode, nil] {
            let result = try await verifier(environment: environment).verifyAndDecodeTransaction(jws)
            guard case .invalid(.invalidChain(let reason)) = result else {
                Issue.record("expected invalidChain, got \(result)")
                continue
            }
            #expect(reason.contains("1 certificate"))
        }
        let apple = SignedDataVerifier(trust: .apple, expectedEnvironment: .production)
        #expect(await apple.verifyAndDecodeTransaction(jws).value == nil)
    }

    @Test func xcodeSignedTransactionIsNotTrustedEvenWithItsOwnCertificateAsARoot() async throws {
        let jws = try ReceiptFixtures.xcode("xcode-signed-transaction")
        let header = try #require(jws.split(separator: ".").first)
        let headerBytes = try #require(ReceiptBase64.decode(String(header), alphabet: .url))
        struct Header: Decodable { var x5c: [String] }
        let x5c = try JSONDecoder().decode(Header.self, from: Data(headerBytes)).x5c
        let first = try #require(x5c.first)
        let certificate = try #require(ReceiptBase64.decode(first, alphabet: .standard))
        let trust = try TrustStore(roots: []).adding(der: certificate)
        let verifier = SignedDataVerifier(trust: trust)
        #expect(await verifier.verifyAndDecodeTransaction(jws).value == nil)
        #expect(
            try await verifier.verifyAndDecodeRenewalInfo(ReceiptFixtures.xcode("xcode-signed-renewal-info")).value
                == nil)
    }

    @Test func xcodeSignedPayloadDecodesWithFractionalMilliseconds() throws {
        // The payload itself (not its signature): Xcode writes fractional milliseconds.
        let jws = try ReceiptFixtures.xcode("xcode-signed-transaction")
        let segments = jws.split(separator: ".", omittingEmptySubsequences: false)
        #expect(segments.count == 3)
        let payloadBytes = try #require(ReceiptBase64.decode(String(segments[1]), alphabet: .url))
        let payload = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: Data(payloadBytes))
        #expect(payload.transactionId == "0")
        #expect(payload.originalTransactionId == "0")
        #expect(payload.productId == "pass.premium")
        #expect(payload.quantity == 1)
        #expect(payload.type == "Auto-Renewable Subscription")
        #expect(payload.storefront == "USA")
        #expect(payload.purchaseDate == 1_697_679_936_049)
        #expect(payload.environment == "Xcode")
        #expect(payload.offerType == 1)
    }

    @Test func signedTransactionModelMapsToEvidence() throws {
        let data = try Data(contentsOf: ReceiptFixtures.url("apple-server-library/models/signedTransaction.json"))
        let payload = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: data)
        #expect(payload.transactionId == "23456")
        #expect(payload.originalTransactionId == "12345")
        #expect(payload.price == 10_990)
        #expect(payload.currency == "USD")
        #expect(payload.revocationDate == 1_698_148_950_000)
        #expect(payload.revocationReason == 1)
        #expect(payload.isUpgraded == true)
        #expect(payload.appTransactionId == "71134")
        #expect(payload.offerDiscountType == "PAY_AS_YOU_GO")

        let evidence = payload.evidence
        #expect(evidence.format == .signedTransaction)
        #expect(evidence.signature == .verified)
        #expect(evidence.environment == .localTesting)
        #expect(evidence.bundleID == "com.example")
        #expect(evidence.creationDate == 1_698_148_900_000)
        let entry = try #require(evidence.entries.first)
        #expect(evidence.entries.count == 1)
        #expect(entry.transactionID == "23456")
        #expect(entry.originalTransactionID == "12345")
        #expect(entry.price == Money(milliunits: 10_990, currency: "USD"))
        #expect(entry.price?.formatted == "10.99")
        #expect(entry.cancellationDate == 1_698_148_950_000)
        #expect(entry.cancellationReason == "1")
        #expect(entry.productType == "Auto-Renewable Subscription")
        #expect(entry.storefront == "USA")
        #expect(entry.quantity == 1)
        #expect(entry.webOrderLineItemID == "34343")
        #expect(entry.inAppOwnershipType == "PURCHASED")
        #expect(entry.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(entry.environment == .localTesting)
    }

    @Test func revocationModelKeepsTypeAndPercentage() throws {
        let data = try Data(
            contentsOf: ReceiptFixtures.url("apple-server-library/models/signedTransactionWithRevocation.json"))
        let entry = try #require(
            try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: data).evidence.entries.first)
        #expect(entry.revocationType == "REFUND_PRORATED")
        #expect(entry.revocationPercentage == 50_000)
        #expect(entry.cancellationDate == 1_698_148_950_000)
    }

    @Test func signedNotificationModelDecodes() throws {
        let data = try Data(contentsOf: ReceiptFixtures.url("apple-server-library/models/signedNotification.json"))
        let payload = try JSONDecoder().decode(ResponseBodyV2DecodedPayload.self, from: data)
        #expect(payload.notificationType == "SUBSCRIBED")
        #expect(payload.subtype == "INITIAL_BUY")
        #expect(payload.version == "2.0")
        #expect(payload.data?.appAppleId == 41_234)
        #expect(payload.data?.signedTransactionInfo == "signed_transaction_info_value")
        #expect(payload.data?.signedRenewalInfo == "signed_renewal_info_value")
        #expect(payload.data?.status == 1)
        #expect(payload.storeEnvironment == .localTesting)
    }
}
