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

/// Every decoder must turn any bytes into a value or an error, quickly.
///
/// No trap, no hang, no unbounded allocation. Seeded loops keep failures reproducible.
@Suite("Hostile receipt inputs")
struct HostileInputTests {
    // MARK: iOS 6 transaction receipts

    @Test func legacyTruncationsFail() throws {
        let full = LegacyReceiptDecoderTests.fullReceipt()
        let decoder = LegacyReceiptDecoder()
        #expect((try? decoder.decode(full).get()) != nil)
        let characters = Array(full)
        var failures = 0
        for length in stride(from: 0, to: characters.count - 4, by: 3) {
            if case .failure = decoder.decode(String(characters[0..<length])) { failures += 1 }
        }
        #expect(failures == (characters.count - 4 + 2) / 3)
    }

    @Test func legacyDeepNestingAndHugeStringsFail() {
        let decoder = LegacyReceiptDecoder()
        let deep = String(repeating: "{ a = ", count: 50_000) + "x" + String(repeating: "; }", count: 50_000)
        #expect(decoder.decode(Data(deep.utf8).base64EncodedString()).failureKind == .malformed)
        let arrays = String(repeating: "(", count: 100_000)
        #expect(decoder.decode(Data(arrays.utf8).base64EncodedString()).failureKind == .malformed)
        let unterminated = "{ \"purchase-info\" = \"" + String(repeating: "A", count: 500_000)
        #expect(decoder.decode(Data(unterminated.utf8).base64EncodedString()).failureKind == .malformed)
        let tooLong = String(repeating: "QUFB", count: (LegacyReceiptDecoder.maxInputLength / 4) + 1)
        #expect(decoder.decode(tooLong).failureKind == .malformed)
        // A purchase-info nested to the limit inside a valid outer receipt.
        let innerDeep = String(repeating: "(", count: 10_000)
        let outer = "{ \"purchase-info\" = \"\(Data(innerDeep.utf8).base64EncodedString())\"; }"
        #expect(decoder.decode(Data(outer.utf8).base64EncodedString()).failureKind == .malformed)
    }

    @Test func legacyRandomAndMutatedInputsNeverCrash() throws {
        var random = SeededGenerator(seed: 0x1E6AC7)
        let decoder = LegacyReceiptDecoder()
        let seedText = Array(
            Data(base64Encoded: LegacyReceiptDecoderTests.fullReceipt(), options: .ignoreUnknownCharacters) ?? Data())
        #expect(!seedText.isEmpty)
        var randomSuccesses = 0
        for _ in 0..<2_000 {
            let length = Int.random(in: 0..<300, using: &random)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            if case .success = decoder.decode(bytes.base64) { randomSuccesses += 1 }
            // Random text in the plist alphabet, too.
            let alphabet = Array("{}()<>=;,\"\\/* \nab01".utf8)
            let text = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
            _ = decoder.decode(text.base64)
        }
        #expect(randomSuccesses == 0)
        for _ in 0..<2_000 {
            var mutated = seedText
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let index = Int.random(in: 0..<mutated.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: mutated[index] = UInt8.random(in: 0...255, using: &random)
                case 1: mutated.remove(at: index)
                default: mutated.insert(UInt8.random(in: 0...255, using: &random), at: index)
                }
                if mutated.isEmpty { break }
            }
            if case .success(let evidence) = decoder.decode(mutated.base64) {
                #expect(evidence.entries.count == 1)
            }
        }
    }

    // MARK: PKCS#7 app receipts

    @Test func appReceiptTruncationsFail() throws {
        let der = try #require(
            ReceiptBase64.decode(try ReceiptFixtures.xcode("xcode-app-receipt-with-transaction"), alphabet: .standard))
        for length in 0..<der.count - 1 {
            let result = AppReceiptDecoder().decodeReceipt(Array(der[0..<length]).base64)
            #expect(result.failureKind == .malformed, "length \(length)")
        }
    }

    @Test func appReceiptAbsurdStructuresFail() async {
        let decoder = AppReceiptDecoder()
        let cases: [[UInt8]] = [
            [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF, 0x06, 0x09],  // 4 GiB declared
            [0x30, 0x88, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00],  // 2^64 declared
            [0x30, 0x89] + Array(repeating: 0xFF, count: 9),  // wider than any length
            Array(repeating: [0x30, 0x80], count: 5_000).flatMap { $0 },  // deep indefinite nesting
            Array(repeating: [0x24, 0x80], count: 5_000).flatMap { $0 },  // deep constructed OCTET STRING
            [0x30, 0x80, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02],  // no end-of-contents
            [0x1F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0x00],  // huge tag number
            TestDER.wrapUnsigned(TestDER.set([TestDER.attribute(17, [0x31, 0x84, 0x7F, 0xFF, 0xFF, 0xFF])])),
            TestDER.wrapUnsigned(TestDER.set([TestDER.attribute(12, TestDER.ia5("yesterday"))])),
            TestDER.wrapUnsigned(TestDER.set([TestDER.attribute(2, TestDER.tlv(0x0C, [0xC3, 0x28]))])),
            TestDER.wrapUnsigned(
                TestDER.set([
                    TestDER.attribute(
                        17,
                        TestDER.set([
                            TestDER.attribute(1703, TestDER.utf8("1")),
                            TestDER.attribute(1701, TestDER.tlv(0x02, Array(repeating: 0x7F, count: 20))),
                        ]))
                ])),
            TestDER.wrapUnsigned([0x04, 0x02, 0x01, 0x02]),
        ]
        for bytes in cases {
            let result = await decoder.decode(bytes.base64)
            #expect(result.failureKind == .malformed, "\(bytes.prefix(12))")
        }
    }

    @Test func appReceiptRandomAndMutatedInputsNeverCrash() async throws {
        var random = SeededGenerator(seed: 0xA99)
        let decoder = AppReceiptDecoder()
        let der = try #require(
            ReceiptBase64.decode(try ReceiptFixtures.xcode("xcode-app-receipt-with-transaction"), alphabet: .standard))
        var randomSuccesses = 0
        for _ in 0..<2_000 {
            let length = Int.random(in: 0..<400, using: &random)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            if !bytes.isEmpty, Bool.random(using: &random) { bytes[0] = 0x30 }
            if case .success = decoder.decodeReceipt(bytes.base64) { randomSuccesses += 1 }
        }
        #expect(randomSuccesses == 0)
        var mutatedSuccesses = 0
        for round in 0..<3_000 {
            var mutated = der
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<mutated.count, using: &random)
                mutated[index] =
                    Int.random(in: 0..<4, using: &random) == 0 ? 0x80 : UInt8.random(in: 0...255, using: &random)
            }
            if round % 10 == 0 {
                // The full path, CMS signature check included, on a tenth of them.
                if case .success(let evidence) = await decoder.decode(mutated.base64) {
                    mutatedSuccesses += 1
                    #expect(evidence.signature != .verified)
                }
            } else if case .success = decoder.decodeReceipt(mutated.base64) {
                mutatedSuccesses += 1
            }
        }
        // Mutations in the signature or certificates leave the payload decodable: some succeed.
        #expect(mutatedSuccesses > 0)
    }

    @Test func signatureCheckSurvivesGarbage() async {
        var random = SeededGenerator(seed: 7)
        let trust = TrustStore.apple
        let now = Date(timeIntervalSince1970: 1_735_689_600)
        for _ in 0..<1_000 {
            let bytes = (0..<Int.random(in: 0..<64, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            let (status, _) = await AppReceiptSignature.check(bytes, trust: trust, at: now)
            #expect(status == .invalid)
        }
        // Indefinite lengths parse (BER), but a SignedData without signers is not signed.
        let (status, detail) = await AppReceiptSignature.check(
            [0x30, 0x80, 0x02, 0x01, 0x05, 0x00, 0x00], trust: trust, at: now)
        #expect(status == .invalid)
        #expect(detail?.contains("not PKCS#7 SignedData") == true)
    }

    // MARK: JWS

    @Test func jwsAbsurdInputsFail() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let verifier = TestAuthorities.verifier(trusting: [authority])
        let deepJSON = String(repeating: "[", count: 100_000)
        let deepHeader = jwsBase64URL(Array(("{\"alg\":\"ES256\",\"x5c\":" + deepJSON).utf8))
        let manyCerts =
            "{\"alg\":\"ES256\",\"x5c\":[" + Array(repeating: "\"AAAA\"", count: 50).joined(separator: ",") + "]}"
        let notCerts = "{\"alg\":\"ES256\",\"x5c\":[\"AAAA\",\"AAAA\",\"AAAA\"]}"
        let numberCerts = "{\"alg\":\"ES256\",\"x5c\":[1,2,3]}"
        let urlAlphabetCerts = "{\"alg\":\"ES256\",\"x5c\":[\"-_-_\",\"AAAA\",\"AAAA\"]}"
        let cases: [(String, (JWSVerificationFailure) -> Bool)] = [
            (deepHeader + ".e30.AAAA", { if case .malformed = $0 { true } else { false } }),
            (jwsBase64URL(Array(manyCerts.utf8)) + ".e30.AAAA", { if case .invalidChain = $0 { true } else { false } }),
            (jwsBase64URL(Array(notCerts.utf8)) + ".e30.AAAA", { if case .invalidChain = $0 { true } else { false } }),
            (jwsBase64URL(Array(numberCerts.utf8)) + ".e30.AAAA", { if case .malformed = $0 { true } else { false } }),
            (
                jwsBase64URL(Array(urlAlphabetCerts.utf8)) + ".e30.AAAA",
                { if case .invalidChain = $0 { true } else { false } }
            ),
            (
                String(repeating: "A", count: SignedDataVerifier.maxJWSLength + 1),
                { if case .malformed = $0 { true } else { false } }
            ),
            ("e30.e30.", { if case .malformed = $0 { true } else { false } }),
            ("e30.e30.e30.", { if case .malformed = $0 { true } else { false } }),
            ("!!!.e30.AAAA", { if case .malformed = $0 { true } else { false } }),
        ]
        for (jws, expected) in cases {
            let result = await verifier.verifyAndDecodeTransaction(jws)
            guard case .invalid(let failure) = result, expected(failure) else {
                Issue.record("unexpected \(result) for \(jws.prefix(40))")
                continue
            }
        }
    }

    @Test func jwsPayloadWithHostileValuesIsRejectedNotTrapped() async throws {
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let verifier = TestAuthorities.verifier(trusting: [authority])
        let payloads = [
            #"{"signedDate":1e300,"transactionId":"1"}"#,
            #"{"signedDate":-1e300}"#,
            #"{"price":"NaN"}"#,
            #"{"quantity":99999999999}"#,
            #"{"transactionId":{"nested":true}}"#,
            #"[1,2,3]"#,
            #"{"signedDate":1767225600000,"transactionId":12345678901234567890}"#,
        ]
        for text in payloads {
            let jws = try JWSSigner.sign(payloadData: Data(text.utf8), authority: authority)
            let result = await verifier.verifyAndDecodeTransaction(jws)
            #expect(result.value == nil || text.contains("12345678901234567890"), "\(text)")
        }
    }

    @Test func jwsRandomAndMutatedInputsNeverCrash() async throws {
        var random = SeededGenerator(seed: 0x15)
        let authority = try TestAuthorities.unwrap(TestAuthorities.standard)
        let verifier = TestAuthorities.verifier(trusting: [authority])
        let valid = Array(try JWSSigner.sign(payload: TestAuthorities.transaction(), authority: authority).utf8)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ".utf8)
        var accepted = 0
        for _ in 0..<2_000 {
            let length = Int.random(in: 0..<200, using: &random)
            let text = String(
                decoding: (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] },
                as: UTF8.self)
            if case .valid = await verifier.verifyAndDecodeTransaction(text) { accepted += 1 }
        }
        for _ in 0..<3_000 {
            var mutated = valid
            let index = Int.random(in: 0..<mutated.count, using: &random)
            let replacement = alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
            if mutated[index] == replacement { continue }
            mutated[index] = replacement
            if case .valid = await verifier.verifyAndDecodeTransaction(String(decoding: mutated, as: UTF8.self)) {
                Issue.record("a one-character change at \(index) still verified")
            }
        }
        #expect(accepted == 0)
    }
}
