import Crypto
import Foundation
import ReconModel

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
    package let clock: any ReconClock
    package let cache: ChainCache

    /// The largest JWS accepted (Apple's are a few kilobytes; notifications embed two more).
    package static let maxJWSLength = 1 << 20
    /// The most `x5c` certificates accepted: Apple sends 3; chain building explores every
    /// path through the extra ones, so the bound keeps a hostile header cheap.
    package static let maxCertificates = 4

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

    /// Verifies and decodes a signed app transaction (`signedAppTransactionInfo`); bundle id and environment
    /// (`receiptType`) are read from it.
    public func verifyAndDecodeAppTransaction(_ jws: String) async -> JWSVerificationResult<AppTransaction> {
        await verifyAndDecode(jws, as: AppTransaction.self)
    }

    /// The chain verifier over ``trust``, sharing this verifier's cache.
    package var chains: ChainVerifier { ChainVerifier(trust: trust, cache: cache) }

    /// The number of verified chains currently cached (for tests and diagnostics).
    public var cachedChainCount: Int { cache.count }

    /// The whole pipeline for one payload type.
    package func verifyAndDecode<Payload: SignedPayload>(
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
            switch await chains.leafKey(for: header, atMillis: validationMillis) {
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

    package static func millis(_ date: Date) -> Int64 {
        millisecondsSince1970(date)
    }

    /// A one-line, payload-free account of a JSON decoding error.
    package static func describe(decodingError error: any Error) -> String {
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
