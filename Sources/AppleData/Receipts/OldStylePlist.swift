import ReconModel

/// A value of an old-style (NeXTSTEP / OpenStep) property list, the text format of iOS 6
/// transaction receipts: `{ "key" = "value"; list = ( a, b ); blob = <0fa1>; }`.
package enum OldStylePlist: Sendable, Hashable {
    case string(String)
    case data([UInt8])
    case array([OldStylePlist])
    case dictionary([String: OldStylePlist])

    /// The string, when this is one.
    package var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The dictionary, when this is one.
    package var dictionary: [String: OldStylePlist]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }
}

/// A bounded parser for old-style plist text.
///
/// Bounded in every dimension an attacker controls: input size, nesting depth, number of
/// values, string length. Never recurses deeper than ``maxDepth`` and never traps.
package struct OldStylePlistParser {
    /// The deepest nesting of dictionaries and arrays accepted.
    package var maxDepth = 16
    /// The most values (of any kind) accepted in one document.
    package var maxValues = 10_000
    /// The largest input accepted, in bytes.
    package var maxBytes = 1 << 20

    /// Parses a whole document: one value, then only whitespace and comments.
    package func parse(_ bytes: [UInt8]) throws(OldStylePlistError) -> OldStylePlist {
        guard bytes.count <= maxBytes else {
            throw OldStylePlistError(reason: "text longer than \(maxBytes) bytes", offset: 0)
        }
        var cursor = Cursor(bytes: bytes, limits: self)
        // A UTF-8 byte order mark is harmless.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { cursor.position = 3 }
        let value = try cursor.value(depth: 0)
        try cursor.skipTrivia()
        guard cursor.atEnd else { throw cursor.error("unexpected text after the top-level value") }
        return value
    }

    private struct Cursor {
        let bytes: [UInt8]
        let limits: OldStylePlistParser
        var position = 0
        var values = 0

        init(bytes: [UInt8], limits: OldStylePlistParser) {
            self.bytes = bytes
            self.limits = limits
        }

        var atEnd: Bool { position >= bytes.count }

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        func error(_ reason: String) -> OldStylePlistError {
            OldStylePlistError(reason: reason, offset: position)
        }

        /// Skips whitespace, `// line` and `/* block */` comments.
        mutating func skipTrivia() throws(OldStylePlistError) {
            while let byte = current {
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C:
                    position += 1
                case UInt8(ascii: "/") where position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "/"):
                    position += 2
                    while let next = current, next != 0x0A, next != 0x0D { position += 1 }
                case UInt8(ascii: "/") where position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "*"):
                    let start = position
                    position += 2
                    var closed = false
                    while position + 1 < bytes.count {
                        if bytes[position] == UInt8(ascii: "*"), bytes[position + 1] == UInt8(ascii: "/") {
                            position += 2
                            closed = true
                            break
                        }
                        position += 1
                    }
                    guard closed else { throw OldStylePlistError(reason: "unterminated comment", offset: start) }
                default:
                    return
                }
            }
        }

        mutating func value(depth: Int) throws(OldStylePlistError) -> OldStylePlist {
            try skipTrivia()
            values += 1
            guard values <= limits.maxValues else { throw error("more than \(limits.maxValues) values") }
            guard let byte = current else { throw error("unexpected end of text") }
            switch byte {
            case UInt8(ascii: "{"):
                guard depth < limits.maxDepth else { throw error("nested deeper than \(limits.maxDepth) levels") }
                return try dictionary(depth: depth + 1)
            case UInt8(ascii: "("):
                guard depth < limits.maxDepth else { throw error("nested deeper than \(limits.maxDepth) levels") }
                return try array(depth: depth + 1)
            case UInt8(ascii: "<"):
                return try data()
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                return .string(try quotedString())
            default:
                guard Cursor.isUnquoted(byte) else { throw error("unexpected character") }
                return .string(try unquotedString())
            }
        }

        mutating func dictionary(depth: Int) throws(OldStylePlistError) -> OldStylePlist {
            position += 1  // {
            var result: [String: OldStylePlist] = [:]
            while true {
                try skipTrivia()
                guard let byte = current else { throw error("unterminated dictionary") }
                if byte == UInt8(ascii: "}") {
                    position += 1
                    return .dictionary(result)
                }
                guard case .string(let key) = try value(depth: depth) else {
                    throw error("dictionary key is not a string")
                }
                try skipTrivia()
                guard current == UInt8(ascii: "=") else { throw error("expected '=' after a dictionary key") }
                position += 1
                let entry = try value(depth: depth)
                result[key] = entry
                try skipTrivia()
                if current == UInt8(ascii: ";") {
                    position += 1
                } else if current != UInt8(ascii: "}") {
                    throw error("expected ';' after a dictionary value")
                }
            }
        }

        mutating func array(depth: Int) throws(OldStylePlistError) -> OldStylePlist {
            position += 1  // (
            var result: [OldStylePlist] = []
            while true {
                try skipTrivia()
                guard let byte = current else { throw error("unterminated array") }
                if byte == UInt8(ascii: ")") {
                    position += 1
                    return .array(result)
                }
                result.append(try value(depth: depth))
                try skipTrivia()
                if current == UInt8(ascii: ",") {
                    position += 1
                } else if current != UInt8(ascii: ")") {
                    throw error("expected ',' or ')' in an array")
                }
            }
        }

        mutating func data() throws(OldStylePlistError) -> OldStylePlist {
            position += 1  // <
            var result: [UInt8] = []
            var high: UInt8?
            while let byte = current {
                position += 1
                if byte == UInt8(ascii: ">") {
                    guard high == nil else { throw error("odd number of hex digits in data") }
                    return .data(result)
                }
                if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
                guard let nibble = Cursor.hexValue(byte) else { throw error("bad hex digit in data") }
                if let pending = high {
                    result.append(pending << 4 | nibble)
                    high = nil
                } else {
                    high = nibble
                }
            }
            throw error("unterminated data")
        }

        mutating func quotedString() throws(OldStylePlistError) -> String {
            let quote = bytes[position]
            let start = position
            position += 1
            var out: [UInt8] = []
            while let byte = current {
                position += 1
                if byte == quote {
                    guard let text = String(validating: out, as: UTF8.self) else {
                        throw OldStylePlistError(reason: "string is not UTF-8", offset: start)
                    }
                    return text
                }
                guard byte == UInt8(ascii: "\\") else {
                    out.append(byte)
                    continue
                }
                guard let escaped = current else { break }
                position += 1
                switch escaped {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "a"): out.append(0x07)
                case UInt8(ascii: "v"): out.append(0x0B)
                case UInt8(ascii: "U"), UInt8(ascii: "u"):
                    var scalarValue: UInt32 = 0
                    var digits = 0
                    while digits < 4, let next = current, let nibble = Cursor.hexValue(next) {
                        scalarValue = scalarValue << 4 | UInt32(nibble)
                        position += 1
                        digits += 1
                    }
                    guard digits > 0 else { throw error("\\U escape without hex digits") }
                    let scalar = Unicode.Scalar(scalarValue) ?? "\u{FFFD}"
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var octal = UInt32(escaped - UInt8(ascii: "0"))
                    var digits = 1
                    while digits < 3, let next = current, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(next) {
                        octal = octal * 8 + UInt32(next - UInt8(ascii: "0"))
                        position += 1
                        digits += 1
                    }
                    out.append(UInt8(truncatingIfNeeded: octal))
                default:
                    out.append(escaped)  // \" \\ \' and unknown escapes keep the character
                }
            }
            throw OldStylePlistError(reason: "unterminated string", offset: start)
        }

        mutating func unquotedString() throws(OldStylePlistError) -> String {
            let start = position
            while let byte = current, Cursor.isUnquoted(byte) { position += 1 }
            // Unquoted strings are ASCII by construction.
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        static func isUnquoted(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"),
                UInt8(ascii: "."), UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }

        static func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
    }
}
