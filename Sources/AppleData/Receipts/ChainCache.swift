import Crypto
import ReconModel
import Synchronization

/// Chains already verified (keyed by SHA-256 of their `x5c` DER) and headers already parsed
/// (keyed by SHA-256 of the header segment), behind one lock.
package final class ChainCache: Sendable {
    /// A verified chain: its leaf key and the window in which every certificate is valid.
    package struct Entry: Sendable {
        package let leafKey: P256.Signing.PublicKey
        /// Latest `notValidBefore` of the chain, epoch ms.
        package let notBefore: Int64
        /// Earliest `notValidAfter` of the chain, epoch ms.
        package let notAfter: Int64

        package func contains(_ millis: Int64) -> Bool {
            millis >= notBefore && millis <= notAfter
        }
    }

    private struct State {
        var chains: [SHA256Digest: Entry] = [:]
        var headers: [SHA256Digest: JWSHeader] = [:]
    }

    private let capacity: Int
    private let state = Mutex(State())

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Verified chains held.
    package var count: Int { state.withLock { $0.chains.count } }

    /// The cached leaf key when the chain was verified and `millis` is inside its window.
    package func key(for digest: SHA256Digest, atMillis millis: Int64) -> P256.Signing.PublicKey? {
        guard let entry = state.withLock({ $0.chains[digest] }), entry.contains(millis) else { return nil }
        return entry.leafKey
    }

    package func insert(_ entry: Entry, for digest: SHA256Digest) {
        let capacity = self.capacity
        state.withLock { state in
            // Chains are few (Apple rotates leaves rarely); dropping all when full is simple and bounded.
            if state.chains.count >= capacity, state.chains[digest] == nil { state.chains.removeAll() }
            state.chains[digest] = entry
        }
    }

    /// A header parsed before, by the SHA-256 of its base64url segment.
    package func header(for digest: SHA256Digest) -> JWSHeader? {
        state.withLock { $0.headers[digest] }
    }

    package func insert(_ header: JWSHeader, for digest: SHA256Digest) {
        let capacity = self.capacity
        state.withLock { state in
            if state.headers.count >= capacity, state.headers[digest] == nil { state.headers.removeAll() }
            state.headers[digest] = header
        }
    }
}
