/// Why a receipt payload could not be decoded at all.
///
/// A value, never a crash.
public struct ReceiptDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// Not base64, not the expected structure, truncated, absurd lengths, too deep.
        case malformed
        /// JWS with a forbidden `alg`, or a signature that does not verify.
        case badSignature
        /// Certificate chain missing, broken, expired at signing time, or not to a trusted root.
        case untrustedChain
    }

    public var kind: Kind
    /// One line a person understands, never containing the payload itself.
    public var reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String { "\(kind.rawValue): \(reason)" }
}
