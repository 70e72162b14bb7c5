import Foundation
import ReconModel

/// A JSON value read leniently: Apple writes numbers as strings (`"purchase_date_ms": "1698148900000"`)
/// in one API and as numbers in another, and booleans as `true` or `1`.
package enum AppleJSONValue: Sendable, Hashable, Decodable {
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case object([String: AppleJSONValue])
    case array([AppleJSONValue])
    case null

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Most of Apple's values are strings: try the common shapes first, as every miss throws.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode([String: AppleJSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode([AppleJSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else {
            self = .double(try container.decode(Double.self))
        }
    }

    /// Parses a JSON document; nil when it is not JSON.
    package static func parse(_ data: Data) -> AppleJSONValue? {
        try? JSONDecoder().decode(AppleJSONValue.self, from: data)
    }

    package subscript(key: String) -> AppleJSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The object's fields, when it is an object.
    package var object: [String: AppleJSONValue]? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// Text of a string, or the decimal spelling of a number.
    package var string: String? {
        switch self {
        case .string(let value): return value
        case .integer(let value): return String(value)
        case .double(let value):
            if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        default: return nil
        }
    }

    /// An integer from a number or a numeric string.
    package var int64: Int64? {
        switch self {
        case .integer(let value): return value
        case .double(let value):
            guard value.isFinite, value.rounded() == value, abs(value) < 9e18 else { return nil }
            return Int64(value)
        case .string(let value): return Int64(value.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// A boolean from `true`/`false`, `1`/`0` or `"true"`/`"1"`.
    package var bool: Bool? {
        switch self {
        case .bool(let value): return value
        case .integer(let value): return value != 0
        case .string(let value):
            switch value.lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: return nil
            }
        default: return nil
        }
    }

    /// The elements: an array's, or a single object as a one-element list (iOS 6 answers).
    package var list: [AppleJSONValue] {
        switch self {
        case .array(let values): return values
        case .object: return [self]
        default: return []
        }
    }
}
