import Foundation
import ReconModel

/// A compact JWS fully split and decoded (for tests and tools; the verifier caches headers).
package struct JWSParts {
    /// `alg` from the header.
    package var algorithm: String
    /// DER of each `x5c` certificate, leaf first.
    package var certificates: [[UInt8]]
    /// The decoded payload bytes.
    package var payload: [UInt8]
    /// The decoded signature bytes.
    package var signature: [UInt8]
    /// ASCII of `header.payload`: what ES256 signs.
    package var signingInput: [UInt8]

    /// Splits, checks the header and decodes every segment.
    package static func parse(_ jws: String) -> Result<JWSParts, JWSVerificationFailure> {
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
