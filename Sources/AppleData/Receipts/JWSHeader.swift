import Crypto
import Foundation
import ReconModel

/// A JWS header that passed the structural checks: ES256 and at least three `x5c` certificates.
package struct JWSHeader: Sendable {
    /// `alg`, always `ES256` here.
    package var algorithm: String
    /// DER of each `x5c` certificate, leaf first.
    package var certificates: [[UInt8]]
    /// SHA-256 over the length-prefixed DER of every certificate: the chain cache key.
    package var chainDigest: SHA256Digest

    private struct Fields: Decodable {
        var alg: String?
        var x5c: [String]?
    }

    /// Decodes a header segment and checks `alg` and `x5c`.
    package static func parse(_ segment: Substring.UTF8View) -> Result<JWSHeader, JWSVerificationFailure> {
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
