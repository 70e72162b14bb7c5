import ReconModel

/// What ``SignedDataVerifier`` needs to know of any signed payload, whatever its type.
package protocol SignedPayload: Decodable, Sendable {
    /// `signedDate` in epoch milliseconds: the time the chain is validated at.
    var signedDateMillis: Int64? { get }
    /// The bundle id the payload is for, when it says (renewal info does not).
    var payloadBundleID: String? { get }
    /// The raw `environment` the payload states.
    var payloadEnvironment: String? { get }
    /// Whether the payload type carries a bundle id at all (renewal info does not).
    static var namesBundle: Bool { get }
}

extension SignedPayload {
    package static var namesBundle: Bool { true }
}

/// Lenient readers for Apple's JSON: numbers where strings are expected and fractional
/// milliseconds (Xcode writes `1697679936049.7297`) decode instead of failing the payload.
extension KeyedDecodingContainer {
    /// A string member; a JSON number is accepted and written in decimal.
    package func lenientString(_ key: Key) throws -> String? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let text = try? decode(String.self, forKey: key) { return text }
        if let number = try? decode(Int64.self, forKey: key) { return String(number) }
        if let number = try? decode(Double.self, forKey: key), let whole = Int64(finiteMillis: number) {
            return String(whole)
        }
        throw DecodingError.typeMismatch(
            String.self, .init(codingPath: codingPath + [key], debugDescription: "expected a string"))
    }

    /// An integer member (epoch milliseconds, milliunits, counts); fractions are truncated
    /// toward minus infinity, and a decimal string is accepted.
    package func lenientInt64(_ key: Key) throws -> Int64? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let number = try? decode(Int64.self, forKey: key) { return number }
        if let number = try? decode(Double.self, forKey: key), let whole = Int64(finiteMillis: number) {
            return whole
        }
        if let text = try? decode(String.self, forKey: key), let number = Int64(text) { return number }
        throw DecodingError.typeMismatch(
            Int64.self, .init(codingPath: codingPath + [key], debugDescription: "expected an integer"))
    }

    /// A 32-bit integer member (Apple's numeric enums, quantities, percentages).
    package func lenientInt32(_ key: Key) throws -> Int32? {
        guard let wide = try lenientInt64(key) else { return nil }
        guard let narrow = Int32(exactly: wide) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath + [key], debugDescription: "integer out of range"))
        }
        return narrow
    }

    /// A boolean member; `0`/`1` are accepted.
    package func lenientBool(_ key: Key) throws -> Bool? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let flag = try? decode(Bool.self, forKey: key) { return flag }
        if let number = try? decode(Int64.self, forKey: key), number == 0 || number == 1 { return number == 1 }
        throw DecodingError.typeMismatch(
            Bool.self, .init(codingPath: codingPath + [key], debugDescription: "expected a boolean"))
    }
}

extension Int64 {
    /// `value` rounded down, or nil when it is not finite or does not fit (never traps).
    package init?(finiteMillis value: Double) {
        guard value.isFinite, value >= -9.2e18, value <= 9.2e18 else { return nil }
        self.init(value.rounded(.down))
    }
}
