import Crypto
import ReconModel

/// The three base64url segments of a compact JWS, not yet decoded.
package struct JWSSegments {
    package var header: Substring.UTF8View
    package var payload: Substring.UTF8View
    package var signature: Substring.UTF8View
    /// `header.payload`: what ES256 signs.
    package var signingInput: Substring.UTF8View

    /// Splits at exactly two dots; rejects oversized input and empty header or payload.
    package static func split(_ jws: String) -> Result<JWSSegments, JWSVerificationFailure> {
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
    package func headerDigest() -> SHA256Digest {
        Self.digest(header)
    }

    /// SHA-256 of `header.payload`: what the ES256 signature signs.
    package func signingInputDigest() -> SHA256Digest {
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
