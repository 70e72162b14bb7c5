import Crypto
import Foundation

/// The shared secret that guards the support web view (`IAP_RECON_SERVE_TOKEN`).
///
/// Requests prove it with `Authorization: Bearer <token>` or with the session cookie the login
/// form sets; the cookie holds an HMAC of the token, never the token. Comparisons take the
/// same time whatever the input.
struct AccessToken: Sendable {
    static let cookieName = "iap_recon_session"
    private let token: String
    private let tokenDigest: [UInt8]
    /// The session cookie's value: HMAC-SHA256 of a fixed label under the token, hex.
    let sessionValue: String

    init(_ token: String) {
        self.token = token
        tokenDigest = Array(SHA256.hash(data: Data(token.utf8)))
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("iap-recon serve session v1".utf8), using: SymmetricKey(data: Data(token.utf8)))
        sessionValue = mac.map { String(format: "%02x", $0) }.joined()
    }

    /// True when `candidate` is the token (compared as SHA-256 digests, in constant time).
    func matches(_ candidate: String) -> Bool {
        Self.constantTimeEqual(Array(SHA256.hash(data: Data(candidate.utf8))), tokenDigest)
    }

    /// True when `candidate` is this token's session cookie value (constant time).
    func matchesSession(_ candidate: String) -> Bool {
        Self.constantTimeEqual(
            Array(SHA256.hash(data: Data(candidate.utf8))), Array(SHA256.hash(data: Data(sessionValue.utf8))))
    }

    /// Compares equal-length byte strings without an early exit.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// The token in an `Authorization: Bearer …` header value, if it is one.
    static func bearer(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }
}
