/// Why a money value could not be parsed.
public enum MoneyError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownCurrency(String)
    case notADecimal(String)
    case tooManyDecimals(String, allowed: Int)
    case outOfRange(String)

    public var description: String {
        switch self {
        case .unknownCurrency(let code): return "unknown currency '\(code)'"
        case .notADecimal(let text): return "'\(text)' is not a decimal number"
        case .tooManyDecimals(let text, let allowed):
            return "'\(text)' has more than \(allowed) decimal\(allowed == 1 ? "" : "s")"
        case .outOfRange(let text): return "'\(text)' is out of range"
        }
    }
}
