import ReconModel

/// Strict, allocation-light base64 decoding for untrusted receipt payloads.
///
/// Foundation's decoder is lenient in places we do not want (it can skip unknown characters)
/// and strict where clients are sloppy (line breaks). This one decodes exactly the alphabets
/// Apple's payloads use and never traps on any input.
package enum ReceiptBase64 {
    /// Which 64-character alphabet to accept.
    package enum Alphabet: Sendable {
        /// RFC 4648 §4 (`+`, `/`), optional `=` padding: receipts and `x5c` certificates.
        case standard
        /// RFC 4648 §5 (`-`, `_`), padding optional: JWS segments.
        case url
    }

    /// Sextet values for each ASCII byte, 0xFF for "not in the alphabet", 0xFE for whitespace.
    private static let standardTable: [UInt8] = makeTable(plus: UInt8(ascii: "+"), slash: UInt8(ascii: "/"))
    private static let urlTable: [UInt8] = makeTable(plus: UInt8(ascii: "-"), slash: UInt8(ascii: "_"))

    private static func makeTable(plus: UInt8, slash: UInt8) -> [UInt8] {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8).enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        table[Int(plus)] = 62
        table[Int(slash)] = 63
        for space in [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")] {
            table[Int(space)] = 0xFE
        }
        return table
    }

    /// Decodes `text`.
    ///
    /// - Parameters:
    ///   - text: the encoded characters.
    ///   - alphabet: which alphabet to accept.
    ///   - allowWhitespace: skip ASCII spaces, tabs and line breaks anywhere (clients wrap
    ///     receipts at 64 or 76 columns).
    ///   - maxOutput: refuse (nil) inputs that would decode to more bytes than this.
    /// - Returns: the bytes, or nil when a character is outside the alphabet, padding is
    ///   misplaced, the length is impossible, or the output would be too large.
    package static func decode(
        _ text: Substring.UTF8View, alphabet: Alphabet, allowWhitespace: Bool = false, maxOutput: Int = 16 << 20
    ) -> [UInt8]? {
        guard text.count / 4 * 3 <= maxOutput + 3 else { return nil }
        let fast = text.withContiguousStorageIfAvailable { buffer in
            decode(buffer, alphabet: alphabet, allowWhitespace: allowWhitespace, maxOutput: maxOutput)
        }
        if let fast { return fast }
        let copy = Array(text)
        return copy.withUnsafeBufferPointer {
            decode($0, alphabet: alphabet, allowWhitespace: allowWhitespace, maxOutput: maxOutput)
        }
    }

    private static func decode(
        _ input: UnsafeBufferPointer<UInt8>, alphabet: Alphabet, allowWhitespace: Bool, maxOutput: Int
    ) -> [UInt8]? {
        let table = alphabet == .standard ? standardTable : urlTable
        return table.withUnsafeBufferPointer { table -> [UInt8]? in
            var output: [UInt8] = []
            output.reserveCapacity(input.count / 4 * 3 + 3)
            var accumulator: UInt32 = 0
            var sextets = 0
            var padding = 0
            for byte in input {
                let value = table[Int(byte)]
                if value < 64, padding == 0 {
                    accumulator = accumulator << 6 | UInt32(value)
                    sextets += 1
                    if sextets == 4 {
                        output.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                        output.append(UInt8(truncatingIfNeeded: accumulator >> 8))
                        output.append(UInt8(truncatingIfNeeded: accumulator))
                        accumulator = 0
                        sextets = 0
                    }
                } else if value == 0xFE {
                    guard allowWhitespace else { return nil }
                } else if byte == UInt8(ascii: "=") {
                    padding += 1
                } else {
                    return nil  // outside the alphabet, or data after padding
                }
            }
            switch sextets {
            case 0:
                guard padding == 0 else { return nil }
            case 2:
                guard padding == 0 || padding == 2 else { return nil }
                // JWS must be canonical: unused trailing bits are zero (no second spelling of a signature).
                guard alphabet == .standard || accumulator & 0xF == 0 else { return nil }
                output.append(UInt8(truncatingIfNeeded: accumulator >> 4))
            case 3:
                guard padding == 0 || padding == 1 else { return nil }
                guard alphabet == .standard || accumulator & 0x3 == 0 else { return nil }
                output.append(UInt8(truncatingIfNeeded: accumulator >> 10))
                output.append(UInt8(truncatingIfNeeded: accumulator >> 2))
            default:
                return nil
            }
            guard output.count <= maxOutput else { return nil }
            return output
        }
    }

    /// Decodes a `String` (see ``decode(_:alphabet:allowWhitespace:maxOutput:)``).
    package static func decode(
        _ text: String, alphabet: Alphabet, allowWhitespace: Bool = false, maxOutput: Int = 16 << 20
    ) -> [UInt8]? {
        decode(Substring(text).utf8, alphabet: alphabet, allowWhitespace: allowWhitespace, maxOutput: maxOutput)
    }
}
