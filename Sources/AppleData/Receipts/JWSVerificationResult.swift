import ReconModel

/// The outcome of verifying a signed payload: the decoded value, or why it was rejected.
///
/// A rejected JWS is data, not an error: callers record it as evidence and carry on.
public enum JWSVerificationResult<T: Sendable>: Sendable {
    /// The signature, chain, bundle id and environment all check out.
    case valid(T)
    /// Rejected, with the first reason found.
    case invalid(JWSVerificationFailure)

    /// The decoded value when valid.
    public var value: T? {
        if case .valid(let value) = self { return value }
        return nil
    }

    /// The failure when invalid.
    public var failure: JWSVerificationFailure? {
        if case .invalid(let failure) = self { return failure }
        return nil
    }
}

extension JWSVerificationResult: Equatable where T: Equatable {}
extension JWSVerificationResult: Hashable where T: Hashable {}
