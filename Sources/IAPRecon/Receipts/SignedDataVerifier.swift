import Crypto
import Foundation
import SwiftASN1
import Synchronization
@_spi(FixedExpiryValidationTime) import X509

/// Verifies StoreKit 2 JWS (transactions, renewal info, server notifications) offline.
///
/// The checks, in order, follow Apple's App Store Server Library:
/// 1. compact form: exactly three base64url segments;
/// 2. header `alg` is `ES256` (anything else, `none` included, is refused);
/// 3. header `x5c` holds three certificates (leaf, intermediate, root; a fourth is tolerated);
/// 4. the chain reaches a trusted root under RFC 5280 at the payload's `signedDate`, with
///    Apple's marker extensions on the intermediate (1.2.840.113635.100.6.2.1) and the leaf
///    (1.2.840.113635.100.6.11.1);
/// 5. the ES256 signature (raw r‖s) over `header.payload` with the leaf's P-256 key;
/// 6. the bundle id, when ``expectedBundleIDs`` is not empty;
/// 7. the environment, when ``expectedEnvironment`` is set (`Xcode` and `LocalTesting` never
///    satisfy `Production`).
///
/// Verified chains are cached (SHA-256 of the `x5c` DER → leaf key and validity window), so a
/// batch of JWS signed by one chain validates the chain once. Copies of a verifier share the
/// cache; the verifier is `Sendable` and safe to use from many tasks at once.
public struct SignedDataVerifier: Sendable {
    /// The roots chains must reach.
    public let trust: TrustStore
    /// Bundle ids accepted; empty accepts any.
    public let expectedBundleIDs: Set<String>
    /// The environment required, or nil to accept any.
    public let expectedEnvironment: StoreEnvironment?
    /// The time to validate at when a payload has no `signedDate`.
    let clock: any ReconClock
    let cache: ChainCache

    /// The largest JWS accepted (Apple's are a few kilobytes; notifications embed two more).
    static let maxJWSLength = 1 << 20
    /// The most `x5c` certificates accepted: Apple sends 3; chain building explores every
    /// path through the extra ones, so the bound keeps a hostile header cheap.
    static let maxCertificates = 4

    /// A verifier.
    ///
    /// - Parameters:
    ///   - trust: trusted roots (``TrustStore/apple`` by default).
    ///   - expectedBundleIDs: bundle ids to accept; empty (the default) skips the check.
    ///   - expectedEnvironment: environment to require; nil (the default) skips the check.
    ///   - cacheCapacity: how many verified chains to remember.
    ///   - clock: "now", used only for payloads without `signedDate`.
    public init(
        trust: TrustStore = .apple, expectedBundleIDs: Set<String> = [], expectedEnvironment: StoreEnvironment? = nil,
        cacheCapacity: Int = 256, clock: any ReconClock = SystemClock()
    ) {
        self.trust = trust
        self.expectedBundleIDs = expectedBundleIDs
        self.expectedEnvironment = expectedEnvironment
        self.clock = clock
        self.cache = ChainCache(capacity: cacheCapacity)
    }

    /// Verifies and decodes a signed transaction (`signedTransactionInfo`, StoreKit 2 `jwsRepresentation`).
    public func verifyAndDecodeTransaction(_ jws: String) async -> JWSVerificationResult<JWSTransactionDecodedPayload> {
        await verifyAndDecode(jws, as: JWSTransactionDecodedPayload.self)
    }

    /// Verifies and decodes a signed renewal info; it names no bundle id, so only the
    /// environment is checked beyond the signature.
    public func verifyAndDecodeRenewalInfo(_ jws: String) async -> JWSVerificationResult<JWSRenewalInfoDecodedPayload> {
        await verifyAndDecode(jws, as: JWSRenewalInfoDecodedPayload.self)
    }

    /// Verifies and decodes an App Store Server Notification V2 `signedPayload`; bundle id and
    /// environment are read from `data` (or `summary`).
    public func verifyAndDecodeNotification(_ jws: String) async -> JWSVerificationResult<ResponseBodyV2DecodedPayload>
    {
        await verifyAndDecode(jws, as: ResponseBodyV2DecodedPayload.self)
    }

    /// The number of verified chains currently cached (for tests and diagnostics).
    public var cachedChainCount: Int { cache.count }

    /// The whole pipeline for one payload type.
    func verifyAndDecode<Payload: SignedPayload>(
        _ jws: String, as type: Payload.Type
    ) async -> JWSVerificationResult<Payload> {
        let segments: JWSSegments
        switch JWSSegments.split(jws) {
        case .success(let split): segments = split
        case .failure(let failure): return .invalid(failure)
        }
        // Every JWS from one chain carries the same header: parse it once.
        let headerKey = segments.headerDigest()
        let header: JWSHeader
        if let cached = cache.header(for: headerKey) {
            header = cached
        } else {
            switch JWSHeader.parse(segments.header) {
            case .success(let parsed):
                header = parsed
                cache.insert(parsed, for: headerKey)
            case .failure(let failure):
                return .invalid(failure)
            }
        }
        guard let payloadBytes = ReceiptBase64.decode(segments.payload, alphabet: .url) else {
            return .invalid(.malformed("payload is not base64url"))
        }
        guard let signatureBytes = ReceiptBase64.decode(segments.signature, alphabet: .url) else {
            return .invalid(.malformed("signature is not base64url"))
        }
        let payload: Payload
        do {
            payload = try JSONDecoder().decode(Payload.self, from: Data(payloadBytes))
        } catch {
            return .invalid(.malformed("payload is not the expected JSON (\(Self.describe(decodingError: error)))"))
        }
        let validationMillis = payload.signedDateMillis ?? Self.millis(clock.now())

        let leafKey: P256.Signing.PublicKey
        if let cached = cache.key(for: header.chainDigest, atMillis: validationMillis) {
            leafKey = cached  // the common case: no suspension, no chain building
        } else {
            switch await chainKey(for: header, atMillis: validationMillis) {
            case .success(let key): leafKey = key
            case .failure(let failure): return .invalid(failure)
            }
        }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            leafKey.isValidSignature(signature, for: segments.signingInputDigest())
        else {
            return .invalid(.invalidSignature)
        }

        if !expectedBundleIDs.isEmpty, Payload.namesBundle {
            let found = payload.payloadBundleID
            guard let found, expectedBundleIDs.contains(found) else {
                return .invalid(.bundleMismatch(found: found))
            }
        }
        if let expectedEnvironment {
            let found = payload.payloadEnvironment
            guard let found, StoreEnvironment(raw: found) == expectedEnvironment else {
                return .invalid(.environmentMismatch(found: found))
            }
        }
        return .valid(payload)
    }

    /// The leaf key of a chain valid at `millis`, from the cache or by full validation.
    func chainKey(
        for header: JWSHeader, atMillis millis: Int64
    ) async -> Result<P256.Signing.PublicKey, JWSVerificationFailure> {
        if let key = cache.key(for: header.chainDigest, atMillis: millis) {
            return .success(key)
        }
        switch await Self.validateChain(header.certificates, atMillis: millis, trust: trust) {
        case .success(let entry):
            cache.insert(entry, for: header.chainDigest)
            guard entry.contains(millis) else {
                return .failure(.invalidChain("a certificate is not valid at signedDate"))
            }
            return .success(entry.leafKey)
        case .failure(let failure):
            return .failure(failure)
        }
    }

    /// Parses and validates an `x5c` chain with swift-certificates' `Verifier`.
    static func validateChain(
        _ certificates: [[UInt8]], atMillis millis: Int64, trust: TrustStore
    ) async -> Result<ChainCache.Entry, JWSVerificationFailure> {
        var parsed: [Certificate] = []
        for (index, der) in certificates.enumerated() {
            guard let certificate = try? Certificate(derEncoded: der) else {
                return .failure(.invalidChain("x5c certificate \(index + 1) is not valid X.509 DER"))
            }
            parsed.append(certificate)
        }
        guard let leaf = parsed.first else { return .failure(.missingX5C) }
        let validationTime = Date(timeIntervalSince1970: Double(millis) / 1000)
        var verifier = Verifier(rootCertificates: trust.certificateStore) {
            RFC5280Policy(fixedExpiryValidationTime: validationTime)
            AppleChainPolicy()
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(parsed.dropFirst()))
        switch result {
        case .validCertificate(let chain):
            guard let key = P256.Signing.PublicKey(chain.leaf.publicKey) else {
                return .failure(.invalidChain("the leaf key is not P-256, as ES256 requires"))
            }
            let notBefore = chain.map { millisecondsSince1970($0.notValidBefore) }.max() ?? Int64.min
            let notAfter = chain.map { millisecondsSince1970($0.notValidAfter) }.min() ?? Int64.max
            return .success(ChainCache.Entry(leafKey: key, notBefore: notBefore, notAfter: notAfter))
        case .couldNotValidate(let failures):
            if let first = failures.first {
                return .failure(.invalidChain(first.policyFailureReason.description))
            }
            return .failure(.invalidChain("no chain from the x5c leaf to a trusted root"))
        }
    }

    static func millis(_ date: Date) -> Int64 {
        millisecondsSince1970(date)
    }

    /// A one-line, payload-free account of a JSON decoding error.
    static func describe(decodingError error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map(\.stringValue).joined(separator: ".")
            return keys.isEmpty ? "top level" : "`\(keys)`"
        }
        switch error {
        case .typeMismatch(_, let context): return "wrong type at \(path(context))"
        case .valueNotFound(_, let context): return "missing value at \(path(context))"
        case .keyNotFound(let key, _): return "missing key `\(key.stringValue)`"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "bad value at \(path(context))"
        @unknown default: return "not JSON"
        }
    }
}

/// Epoch milliseconds of `date`, saturating instead of trapping.
func millisecondsSince1970(_ date: Date) -> Int64 {
    let millis = date.timeIntervalSince1970 * 1000
    return Int64(finiteMillis: millis) ?? (millis < 0 ? Int64.min : Int64.max)
}

/// Apple's chain rules on top of RFC 5280: exactly leaf → intermediate → root, with the WWDR
/// marker on the intermediate and the StoreKit marker on the leaf.
struct AppleChainPolicy: VerifierPolicy {
    /// Apple's marker on its WWDR intermediate CA.
    static let intermediateMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]
    /// Apple's marker on its StoreKit (and receipt) signing leaf.
    static let leafMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]

    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        let certificates = Array(chain)
        guard certificates.count == 3 else {
            return .failsToMeetPolicy(
                reason: "chain has \(certificates.count) certificates; Apple's has 3 (leaf, intermediate, root)")
        }
        guard certificates[0].extensions[oid: Self.leafMarkerOID] != nil else {
            return .failsToMeetPolicy(
                reason: "the leaf lacks Apple's StoreKit signing extension 1.2.840.113635.100.6.11.1")
        }
        guard certificates[1].extensions[oid: Self.intermediateMarkerOID] != nil else {
            return .failsToMeetPolicy(reason: "the intermediate lacks Apple's WWDR extension 1.2.840.113635.100.6.2.1")
        }
        return .meetsPolicy
    }
}

/// Chains already verified (keyed by SHA-256 of their `x5c` DER) and headers already parsed
/// (keyed by SHA-256 of the header segment), behind one lock.
final class ChainCache: Sendable {
    /// A verified chain: its leaf key and the window in which every certificate is valid.
    struct Entry: Sendable {
        let leafKey: P256.Signing.PublicKey
        /// Latest `notValidBefore` of the chain, epoch ms.
        let notBefore: Int64
        /// Earliest `notValidAfter` of the chain, epoch ms.
        let notAfter: Int64

        func contains(_ millis: Int64) -> Bool {
            millis >= notBefore && millis <= notAfter
        }
    }

    private struct State {
        var chains: [SHA256Digest: Entry] = [:]
        var headers: [SHA256Digest: JWSHeader] = [:]
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Verified chains held.
    var count: Int { state.withLock { $0.chains.count } }

    /// The cached leaf key when the chain was verified and `millis` is inside its window.
    func key(for digest: SHA256Digest, atMillis millis: Int64) -> P256.Signing.PublicKey? {
        guard let entry = state.withLock({ $0.chains[digest] }), entry.contains(millis) else { return nil }
        return entry.leafKey
    }

    func insert(_ entry: Entry, for digest: SHA256Digest) {
        let capacity = self.capacity
        state.withLock { state in
            // Chains are few (Apple rotates leaves rarely); dropping all when full is simple and bounded.
            if state.chains.count >= capacity, state.chains[digest] == nil { state.chains.removeAll() }
            state.chains[digest] = entry
        }
    }

    /// A header parsed before, by the SHA-256 of its base64url segment.
    func header(for digest: SHA256Digest) -> JWSHeader? {
        state.withLock { $0.headers[digest] }
    }

    func insert(_ header: JWSHeader, for digest: SHA256Digest) {
        let capacity = self.capacity
        state.withLock { state in
            if state.headers.count >= capacity, state.headers[digest] == nil { state.headers.removeAll() }
            state.headers[digest] = header
        }
    }
}

/// The three base64url segments of a compact JWS, not yet decoded.
struct JWSSegments {
    var header: Substring.UTF8View
    var payload: Substring.UTF8View
    var signature: Substring.UTF8View
    /// `header.payload`: what ES256 signs.
    var signingInput: Substring.UTF8View

    /// Splits at exactly two dots; rejects oversized input and empty header or payload.
    static func split(_ jws: String) -> Result<JWSSegments, JWSVerificationFailure> {
        let utf8 = Substring(jws).utf8
        guard utf8.count <= SignedDataVerifier.maxJWSLength else {
            return .failure(.malformed("longer than \(SignedDataVerifier.maxJWSLength) bytes"))
        }
        var dots: [Substring.UTF8View.Index] = []
        var index = utf8.startIndex
        while index != utf8.endIndex {
            if utf8[index] == UInt8(ascii: ".") {
                dots.append(index)
                if dots.count > 2 { break }
            }
            index = utf8.index(after: index)
        }
        guard dots.count == 2 else {
            return .failure(.malformed("expected 3 dot-separated segments"))
        }
        let segments = JWSSegments(
            header: utf8[utf8.startIndex..<dots[0]],
            payload: utf8[utf8.index(after: dots[0])..<dots[1]],
            signature: utf8[utf8.index(after: dots[1])..<utf8.endIndex],
            signingInput: utf8[utf8.startIndex..<dots[1]])
        guard !segments.header.isEmpty, !segments.payload.isEmpty else {
            return .failure(.malformed("empty header or payload segment"))
        }
        return .success(segments)
    }

    /// SHA-256 of the header segment's characters (the header cache key).
    func headerDigest() -> SHA256Digest {
        Self.digest(header)
    }

    /// SHA-256 of `header.payload`: what the ES256 signature signs.
    func signingInputDigest() -> SHA256Digest {
        Self.digest(signingInput)
    }

    private static func digest(_ bytes: Substring.UTF8View) -> SHA256Digest {
        var hasher = SHA256()
        if bytes.withContiguousStorageIfAvailable({ hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }) == nil {
            hasher.update(data: Array(bytes))
        }
        return hasher.finalize()
    }
}

/// A JWS header that passed the structural checks: ES256 and at least three `x5c` certificates.
struct JWSHeader: Sendable {
    /// `alg`, always `ES256` here.
    var algorithm: String
    /// DER of each `x5c` certificate, leaf first.
    var certificates: [[UInt8]]
    /// SHA-256 over the length-prefixed DER of every certificate: the chain cache key.
    var chainDigest: SHA256Digest

    private struct Fields: Decodable {
        var alg: String?
        var x5c: [String]?
    }

    /// Decodes a header segment and checks `alg` and `x5c`.
    static func parse(_ segment: Substring.UTF8View) -> Result<JWSHeader, JWSVerificationFailure> {
        guard let headerBytes = ReceiptBase64.decode(segment, alphabet: .url),
            let fields = try? JSONDecoder().decode(Fields.self, from: Data(headerBytes))
        else {
            return .failure(.malformed("header is not base64url JSON with a string alg and x5c"))
        }
        guard let alg = fields.alg else {
            return .failure(.malformed("header has no alg"))
        }
        guard alg == "ES256" else {
            return .failure(.unsupportedAlgorithm(alg))
        }
        guard let x5c = fields.x5c, !x5c.isEmpty else {
            return .failure(.missingX5C)
        }
        guard x5c.count >= 3 else {
            let count = x5c.count
            return .failure(
                .invalidChain(
                    "x5c has \(count) certificate\(count == 1 ? "" : "s"); Apple's chain has 3 (leaf, intermediate, root)"
                ))
        }
        guard x5c.count <= SignedDataVerifier.maxCertificates else {
            return .failure(
                .invalidChain(
                    "x5c has \(x5c.count) certificates; at most \(SignedDataVerifier.maxCertificates) are accepted"))
        }
        var certificates: [[UInt8]] = []
        certificates.reserveCapacity(x5c.count)
        var hasher = SHA256()
        for (position, text) in x5c.enumerated() {
            guard let der = ReceiptBase64.decode(text, alphabet: .standard, maxOutput: 64 << 10), !der.isEmpty else {
                return .failure(.invalidChain("x5c certificate \(position + 1) is not standard base64"))
            }
            withUnsafeBytes(of: UInt32(der.count).bigEndian) { hasher.update(bufferPointer: $0) }
            hasher.update(data: der)
            certificates.append(der)
        }
        return .success(JWSHeader(algorithm: alg, certificates: certificates, chainDigest: hasher.finalize()))
    }
}

/// A compact JWS fully split and decoded (for tests and tools; the verifier caches headers).
struct JWSParts {
    /// `alg` from the header.
    var algorithm: String
    /// DER of each `x5c` certificate, leaf first.
    var certificates: [[UInt8]]
    /// The decoded payload bytes.
    var payload: [UInt8]
    /// The decoded signature bytes.
    var signature: [UInt8]
    /// ASCII of `header.payload`: what ES256 signs.
    var signingInput: [UInt8]

    /// Splits, checks the header and decodes every segment.
    static func parse(_ jws: String) -> Result<JWSParts, JWSVerificationFailure> {
        let segments: JWSSegments
        switch JWSSegments.split(jws) {
        case .success(let split): segments = split
        case .failure(let failure): return .failure(failure)
        }
        let header: JWSHeader
        switch JWSHeader.parse(segments.header) {
        case .success(let parsed): header = parsed
        case .failure(let failure): return .failure(failure)
        }
        guard let payload = ReceiptBase64.decode(segments.payload, alphabet: .url) else {
            return .failure(.malformed("payload is not base64url"))
        }
        guard let signature = ReceiptBase64.decode(segments.signature, alphabet: .url) else {
            return .failure(.malformed("signature is not base64url"))
        }
        return .success(
            JWSParts(
                algorithm: header.algorithm, certificates: header.certificates, payload: payload, signature: signature,
                signingInput: Array(segments.signingInput)))
    }
}
