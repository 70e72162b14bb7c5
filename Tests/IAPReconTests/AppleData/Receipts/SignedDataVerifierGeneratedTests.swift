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

/// JWS built at test time with ``SigningAuthority``: the valid case and each way to break it.
@Suite("SignedDataVerifier on generated chains")
struct SignedDataVerifierGeneratedTests {
    @Test func validChainVerifiesAndDecodes() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let jws = try JWSSigner.sign(payload: TestAuthorities.transaction(), authority: authority)
        let verifier = TestAuthorities.verifier(
            trusting: [authority], bundles: ["com.example.app"], environment: .production)
        let result = await verifier.verifyAndDecodeTransaction(jws)
        let payload = try #require(result.value, "\(String(describing: result.failure))")
        #expect(payload == TestAuthorities.transaction())
        #expect(payload.price == 160_000)
        #expect(payload.currency == "JPY")

        let evidence = verifier.evidence(from: payload)
        #expect(evidence.signature == .verified)
        #expect(evidence.environment == .production)
        #expect(evidence.entries.first?.price?.formatted == "160")
        #expect(evidence.entries.first?.quantity == 3)
        #expect(evidence.entries.first?.storefront == "JPN")
    }

    @Test func signerWritesAppleShapedHeader() throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let jws = try JWSSigner.sign(payload: TestAuthorities.transaction(), authority: authority)
        let parts = try JWSParts.parse(jws).get()
        #expect(parts.algorithm == "ES256")
        #expect(parts.certificates == [authority.leafDER, authority.intermediateDER, authority.rootDER])
        #expect(parts.signature.count == 64)
        #expect(authority.rootPEM.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
    }

    @Test func keysAreDeterministicPerSeed() throws {
        let first = try SigningAuthority(options: .init(seed: "same"))
        let second = try SigningAuthority(options: .init(seed: "same"))
        let other = try SigningAuthority(options: .init(seed: "other"))
        #expect(first.leafKey.rawRepresentation == second.leafKey.rawRepresentation)
        #expect(first.rootKey.rawRepresentation == second.rootKey.rawRepresentation)
        #expect(first.leafKey.rawRepresentation != other.leafKey.rawRepresentation)
    }

    @Test func tamperedPayloadFailsTheSignature() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let genuine = try JWSSigner.sign(payload: TestAuthorities.transaction(), authority: authority)
        let forged = try JWSSigner.sign(payload: TestAuthorities.transaction(id: "999"), authority: authority)
        let g = genuine.split(separator: ".", omittingEmptySubsequences: false)
        let f = forged.split(separator: ".", omittingEmptySubsequences: false)
        let spliced = [g[0], f[1], g[2]].joined(separator: ".")
        let result = await TestAuthorities.verifier(trusting: [authority]).verifyAndDecodeTransaction(spliced)
        #expect(result == .invalid(.invalidSignature))
    }

    @Test func tamperedHeaderFailsTheSignature() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let genuine = try JWSSigner.sign(payload: TestAuthorities.transaction(), authority: authority)
        let other = try JWSSigner.sign(
            payload: TestAuthorities.transaction(), authority: authority,
            options: .init(extraHeader: ["kid": "\"rotated\""]))
        let g = genuine.split(separator: ".", omittingEmptySubsequences: false)
        let o = other.split(separator: ".", omittingEmptySubsequences: false)
        let spliced = [o[0], g[1], g[2]].joined(separator: ".")
        let result = await TestAuthorities.verifier(trusting: [authority]).verifyAndDecodeTransaction(spliced)
        #expect(result == .invalid(.invalidSignature))
    }

    @Test func corruptedSignatureIsRejected() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let jws = try JWSSigner.sign(
            payload: TestAuthorities.transaction(), authority: authority, options: .init(corruptSignature: true))
        let result = await TestAuthorities.verifier(trusting: [authority]).verifyAndDecodeTransaction(jws)
        #expect(result == .invalid(.invalidSignature))
    }

    @Test func truncatedSignatureIsRejected() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let jws = try JWSSigner.sign(payload: TestAuthorities.transaction(), authority: authority)
        let result = await TestAuthorities.verifier(trusting: [authority]).verifyAndDecodeTransaction(
            String(jws.dropLast(2)))  // 63 bytes
        #expect(result == .invalid(.invalidSignature))
    }

    @Test(arguments: ["none", "HS256", "RS256", "ES384", "es256", ""])
    func otherAlgorithmsAreRefused(_ algorithm: String) async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let jws = try JWSSigner.sign(
            payload: TestAuthorities.transaction(), authority: authority, options: .init(algorithm: algorithm))
        let result = await TestAuthorities.verifier(trusting: [authority]).verifyAndDecodeTransaction(jws)
        #expect(result == .invalid(.unsupportedAlgorithm(algorithm)))
    }

    @Test func missingX5CIsRejected() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let jws = try JWSSigner.sign(
            payload: TestAuthorities.transaction(), authority: authority, options: .init(chain: .none))
        let result = await TestAuthorities.verifier(trusting: [authority]).verifyAndDecodeTransaction(jws)
        #expect(result == .invalid(.missingX5C))
    }

    @Test(arguments: [JWSSigner.ChainShape.leafAndIntermediate, .leafOnly])
    func shortChainsAreRejected(_ shape: JWSSigner.ChainShape) async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let jws = try JWSSigner.sign(
            payload: TestAuthorities.transaction(), authority: authority, options: .init(chain: shape))
        let result = await TestAuthorities.verifier(trusting: [authority]).verifyAndDecodeTransaction(jws)
        guard case .invalid(.invalidChain(let reason)) = result else {
            Issue.record("expected invalidChain, got \(result)")
            return
        }
        #expect(reason.contains("Apple's chain has 3"))
    }

    @Test func untrustedRootIsRejected() async throws {
        let trusted = try TestAuthorities.unwrap(TestAuthorities.standard)
        let stranger = try TestAuthorities.unwrap(TestAuthorities.stranger)
        let jws = try JWSSigner.sign(payload: TestAuthorities.transaction(), authority: stranger)
        let result = await TestAuthorities.verifier(trusting: [trusted]).verifyAndDecodeTransaction(jws)
        guard case .invalid(.invalidChain) = result else {
            Issue.record("expected invalidChain, got \(result)")
            return
        }
        // Apple's real roots do not trust it either.
        #expect(await SignedDataVerifier().verifyAndDecodeTransaction(jws).value == nil)
    }

    @Test func strangerLeafUnderATrustedIntermediateIsRejected() async throws {
        // x5c names the trusted chain's intermediate and root, but the leaf is the stranger's.
        let trusted = try TestAuthorities.unwrap(TestAuthorities.standard)
        let stranger = try TestAuthorities.unwrap(TestAuthorities.stranger)
        let jws = try JWSSigner.sign(payload: TestAuthorities.transaction(), authority: stranger)
        let segments = jws.split(separator: ".", omittingEmptySubsequences: false)
        let header =
            "{\"alg\":\"ES256\",\"x5c\":[\"\(stranger.leafDER.base64)\",\"\(trusted.intermediateDER.base64)\",\"\(trusted.rootDER.base64)\"]}"
        let forged = [jwsBase64URL(Array(header.utf8)), String(segments[1]), String(segments[2])].joined(separator: ".")
        let result = await TestAuthorities.verifier(trusting: [trusted]).verifyAndDecodeTransaction(forged)
        guard case .invalid(.invalidChain) = result else {
            Issue.record("expected invalidChain, got \(result)")
            return
        }
    }

    @Test func leafExpiredAtSignedDateIsRejected() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.expiredLeaf)
        let verifier = TestAuthorities.verifier(trusting: [authority])
        let late = try JWSSigner.sign(payload: TestAuthorities.transaction(), authority: authority)
        guard case .invalid(.invalidChain) = await verifier.verifyAndDecodeTransaction(late) else {
            Issue.record("a JWS signed after the leaf expired must fail the chain")
            return
        }
        // Signed while the leaf was valid (2024-06-01): fine, even though the leaf has expired since.
        let early = try JWSSigner.sign(
            payload: TestAuthorities.transaction(signedDate: 1_717_200_000_000), authority: authority)
        #expect(await verifier.verifyAndDecodeTransaction(early).value != nil)
        // ... and the cached chain does not let a later signedDate through.
        guard case .invalid(.invalidChain) = await verifier.verifyAndDecodeTransaction(late) else {
            Issue.record("the chain cache must respect the validity window")
            return
        }
    }

    @Test func signedBeforeTheChainWasValidIsRejected() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let jws = try JWSSigner.sign(
            payload: TestAuthorities.transaction(signedDate: 1_500_000_000_000), authority: authority)
        guard
            case .invalid(.invalidChain) = await TestAuthorities.verifier(trusting: [authority])
                .verifyAndDecodeTransaction(jws)
        else {
            Issue.record("expected invalidChain for a signedDate before notValidBefore")
            return
        }
    }

    @Test(arguments: [false, true])
    func missingMarkerExtensionsAreRejected(_ leafMissing: Bool) async throws {
        let authority = try TestAuthorities.unwrap(
            leafMissing ? TestAuthorities.noLeafMarker : TestAuthorities.noIntermediateMarker)
        let jws = try JWSSigner.sign(payload: TestAuthorities.transaction(), authority: authority)
        let result = await TestAuthorities.verifier(trusting: [authority]).verifyAndDecodeTransaction(jws)
        guard case .invalid(.invalidChain(let reason)) = result else {
            Issue.record("expected invalidChain, got \(result)")
            return
        }
        #expect(reason.contains(leafMissing ? "1.2.840.113635.100.6.11.1" : "1.2.840.113635.100.6.2.1"))
    }

    @Test func wrongBundleIsABundleMismatch() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let jws = try JWSSigner.sign(
            payload: TestAuthorities.transaction(bundle: "com.evil.clone"), authority: authority)
        let verifier = TestAuthorities.verifier(
            trusting: [authority], bundles: ["com.example.app", "com.example.app.mac"])
        #expect(await verifier.verifyAndDecodeTransaction(jws) == .invalid(.bundleMismatch(found: "com.evil.clone")))
    }

    @Test(arguments: ["Xcode", "LocalTesting", "Sandbox", "production"])
    func nonProductionEnvironmentsFailAProductionVerifier(_ environment: String) async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let jws = try JWSSigner.sign(
            payload: TestAuthorities.transaction(environment: environment), authority: authority)
        let result = await TestAuthorities.verifier(trusting: [authority], environment: .production)
            .verifyAndDecodeTransaction(jws)
        if environment == "production" {
            // Apple's lowercase spelling in some payloads still means Production.
            #expect(result.value != nil)
        } else {
            #expect(result == .invalid(.environmentMismatch(found: environment)))
        }
    }

    @Test func renewalInfoSkipsTheBundleCheck() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let renewal = JWSRenewalInfoDecodedPayload(
            originalTransactionId: "1", autoRenewProductId: "p", productId: "p", autoRenewStatus: 1,
            signedDate: ReceiptFixtures.signedDate, environment: "Production", renewalPrice: 4990)
        let jws = try JWSSigner.sign(payload: renewal, authority: authority)
        let verifier = TestAuthorities.verifier(
            trusting: [authority], bundles: ["com.example.app"], environment: .production)
        #expect(await verifier.verifyAndDecodeRenewalInfo(jws) == .valid(renewal))
    }

    @Test func notificationRoundTrips() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let inner = try JWSSigner.sign(payload: TestAuthorities.transaction(), authority: authority)
        let notification = ResponseBodyV2DecodedPayload(
            notificationType: "REFUND", notificationUUID: "u-1",
            data: .init(
                appAppleId: 42, bundleId: "com.example.app", environment: "Production", signedTransactionInfo: inner),
            version: "2.0", signedDate: ReceiptFixtures.signedDate)
        let jws = try JWSSigner.sign(payload: notification, authority: authority)
        let verifier = TestAuthorities.verifier(
            trusting: [authority], bundles: ["com.example.app"], environment: .production)
        let decoded = try #require(await verifier.verifyAndDecodeNotification(jws).value)
        #expect(decoded == notification)
        let innerJWS = try #require(decoded.data?.signedTransactionInfo)
        #expect(await verifier.verifyAndDecodeTransaction(innerJWS).value?.transactionId == "2000000123")
    }

    @Test func payloadThatIsNotJSONIsMalformed() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let jws = try JWSSigner.sign(payloadData: Data("not json".utf8), authority: authority)
        guard
            case .invalid(.malformed) = await TestAuthorities.verifier(trusting: [authority])
                .verifyAndDecodeTransaction(jws)
        else {
            Issue.record("expected malformed")
            return
        }
    }

    @Test func chainIsVerifiedOnceForManyTokensAcrossTasks() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let verifier = TestAuthorities.verifier(trusting: [authority], bundles: ["com.example.app"])
        var tokens: [String] = []
        for index in 0..<50 {
            tokens.append(
                try JWSSigner.sign(payload: TestAuthorities.transaction(id: String(index)), authority: authority))
        }
        let all = tokens
        let valid = await withTaskGroup(of: Int.self) { group in
            for task in 0..<4 {
                group.addTask {
                    var ok = 0
                    for index in stride(from: task, to: 200, by: 4) {
                        if case .valid(let payload) = await verifier.verifyAndDecodeTransaction(all[index % all.count]),
                            payload.transactionId == String(index % all.count)
                        {
                            ok += 1
                        }
                    }
                    return ok
                }
            }
            return await group.reduce(0, +)
        }
        #expect(valid == 200)
        #expect(verifier.cachedChainCount == 1)
        // Another chain adds one entry; a broken one adds none.
        let stranger = try TestAuthorities.unwrap(TestAuthorities.stranger)
        _ = await verifier.verifyAndDecodeTransaction(
            try JWSSigner.sign(payload: TestAuthorities.transaction(), authority: stranger))
        #expect(verifier.cachedChainCount == 1)
    }
}
