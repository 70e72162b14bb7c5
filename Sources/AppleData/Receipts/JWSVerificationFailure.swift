import ReconModel

/// Why a JWS was rejected.
///
/// Reasons never contain the payload itself.
public enum JWSVerificationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not three base64url segments, a header or payload that is not the expected JSON, or an
    /// absurd size.
    case malformed(String)
    /// `alg` is not `ES256` (`none`, `HS256`, `RS256` ... are refused): the raw value.
    case unsupportedAlgorithm(String)
    /// The header has no `x5c` certificate chain.
    case missingX5C
    /// The `x5c` chain is short, unparsable, expired at `signedDate`, lacks Apple's marker
    /// extensions, or does not reach a trusted root.
    case invalidChain(String)
    /// The ES256 signature does not match the header and payload.
    case invalidSignature
    /// The payload's bundle id is not one of the expected ones (nil: it names none).
    case bundleMismatch(found: String?)
    /// The payload's environment is not the expected one (nil: it names none).
    case environmentMismatch(found: String?)

    public var description: String {
        switch self {
        case .malformed(let reason): return "malformed JWS: \(reason)"
        case .unsupportedAlgorithm(let alg): return "unsupported JWS algorithm '\(alg)' (only ES256 is accepted)"
        case .missingX5C: return "JWS header has no x5c certificate chain"
        case .invalidChain(let reason): return "untrusted certificate chain: \(reason)"
        case .invalidSignature: return "JWS signature does not verify"
        case .bundleMismatch(let found):
            return "bundle id \(found.map { "'\($0)'" } ?? "(none)") is not an expected one"
        case .environmentMismatch(let found):
            return "environment \(found.map { "'\($0)'" } ?? "(none)") is not the expected one"
        }
    }
}
