import Crypto
import Foundation
import ReconModel
@_spi(FixedExpiryValidationTime) import X509

/// Verifies the `x5c` certificate chain of a JWS.
///
/// The chain must reach a trusted root under RFC 5280 at the validation time and follow ``AppleChainPolicy``. A
/// verified chain is remembered in the ``ChainCache``, so a
/// batch of JWS signed by one chain validates it once.
package struct ChainVerifier: Sendable {
    /// The roots chains must reach.
    package let trust: TrustStore
    /// Chains already verified, shared by copies of the verifier.
    package let cache: ChainCache

    /// The leaf key of a chain valid at `millis`, from the cache or by full validation.
    package func leafKey(
        for header: JWSHeader, atMillis millis: Int64
    ) async -> Result<P256.Signing.PublicKey, JWSVerificationFailure> {
        if let key = cache.key(for: header.chainDigest, atMillis: millis) {
            return .success(key)
        }
        switch await Self.validate(header.certificates, atMillis: millis, trust: trust) {
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
    package static func validate(
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
}

/// Epoch milliseconds of `date`, saturating instead of trapping.
package func millisecondsSince1970(_ date: Date) -> Int64 {
    let millis = date.timeIntervalSince1970 * 1000
    return Int64(finiteMillis: millis) ?? (millis < 0 ? Int64.min : Int64.max)
}
