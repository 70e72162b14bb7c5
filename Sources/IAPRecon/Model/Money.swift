/// An exact amount of money: integer milliunits (1/1000 of the currency's major unit) plus an
/// ISO 4217 currency code. Never binary floating point.
///
/// Milliunits are what Apple's StoreKit 2 payloads use for `price`, and they hold every
/// currency's minor unit exactly (JPY 0 decimals, USD 2, KWD 3).
public struct Money: Sendable, Hashable, Comparable {
    /// The amount in milliunits of ``currency``.
    public var milliunits: Int64
    /// The ISO 4217 alphabetic code, upper case.
    public var currency: String

    public init(milliunits: Int64, currency: String) {
        self.milliunits = milliunits
        self.currency = currency
    }

    public static func < (lhs: Money, rhs: Money) -> Bool {
        (lhs.currency, lhs.milliunits) < (rhs.currency, rhs.milliunits)
    }

    /// Parses a decimal string (`"9.99"`, `"-0.5"`, `"1200"`) in `currency`.
    ///
    /// - Throws: ``MoneyError`` when the text is not a plain decimal, the currency is unknown,
    ///   or the text has more decimals than the currency allows.
    public static func parse(_ text: String, currency: String) throws(MoneyError) -> Money {
        let code = currency.trimmingCharacters(in: .whitespaces).uppercased()
        guard let info = Currency.lookup(code) else { throw .unknownCurrency(currency) }
        let milli = try parseDecimal(text, maxDecimals: info.decimals, scale: 3)
        return Money(milliunits: milli, currency: code)
    }

    /// Parses a plain decimal string into an integer scaled by `10^scale`, rejecting more than
    /// `maxDecimals` fractional digits.
    static func parseDecimal(_ text: String, maxDecimals: Int, scale: Int) throws(MoneyError) -> Int64 {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var digits = Substring(trimmed)
        var negative = false
        if let first = digits.first, first == "-" || first == "+" {
            negative = first == "-"
            digits = digits.dropFirst()
        }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty),
            whole.allSatisfy({ $0.isASCII && $0.isNumber }),
            fraction.allSatisfy({ $0.isASCII && $0.isNumber }),
            !(parts.count > 1 && fraction.isEmpty)
        else { throw .notADecimal(text) }
        // Trailing zeros beyond the currency's decimals are harmless ("9.990" USD).
        var frac = String(fraction)
        while frac.count > maxDecimals, frac.hasSuffix("0") { frac.removeLast() }
        guard frac.count <= maxDecimals else { throw .tooManyDecimals(text, allowed: maxDecimals) }
        guard whole.count <= 15 else { throw .outOfRange(text) }
        var value: Int64 = 0
        for ch in whole { value = value * 10 + Int64(ch.wholeNumberValue ?? 0) }
        var fracValue: Int64 = 0
        var fracDigits = 0
        for ch in frac {
            fracValue = fracValue * 10 + Int64(ch.wholeNumberValue ?? 0)
            fracDigits += 1
        }
        var scaled = value
        for _ in 0..<scale { scaled *= 10 }
        var fracScaled = fracValue
        for _ in fracDigits..<scale { fracScaled *= 10 }
        let result = scaled + fracScaled
        return negative ? -result : result
    }

    /// Formats with the currency's own decimals (`9.99`, `1200`, `1.250`), no grouping, `.`
    /// as separator; exact, from integers.
    public var formatted: String {
        let decimals = Currency.lookup(currency)?.decimals ?? 2
        return Money.format(milliunits: milliunits, decimals: decimals)
    }

    /// Formats `milliunits` with `decimals` fractional digits, rounding half away from zero.
    public static func format(milliunits: Int64, decimals: Int) -> String {
        let dropped = 3 - decimals
        var divisor: Int64 = 1
        for _ in 0..<dropped { divisor *= 10 }
        let negative = milliunits < 0
        let magnitude = milliunits.magnitude
        let units = (magnitude + UInt64(divisor) / 2) / UInt64(divisor)
        var unitDivisor: UInt64 = 1
        for _ in 0..<decimals { unitDivisor *= 10 }
        let whole = units / unitDivisor
        let fraction = units % unitDivisor
        var text = negative && units != 0 ? "-" : ""
        text += String(whole)
        if decimals > 0 {
            let fractionText = String(fraction)
            text += "." + String(repeating: "0", count: decimals - fractionText.count) + fractionText
        }
        return text
    }

    /// Multiplies by an exact rate in parts per million, rounding half away from zero.
    public func scaled(byPPM ppm: Int64) -> Money {
        let product = milliunits.multipliedFullWidth(by: ppm)
        // Amounts stay far below 2^63 / 10^6 in practice; fall back to wide math anyway.
        let wide = (Int128(product.high) << 64) | Int128(product.low)
        let half = Int128(500_000)
        let rounded = wide >= 0 ? (wide + half) / 1_000_000 : (wide - half) / 1_000_000
        return Money(milliunits: Int64(rounded), currency: currency)
    }
}

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

import Foundation
