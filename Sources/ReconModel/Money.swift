import Foundation

/// An exact amount of money: integer milliunits (1/1000 of the currency's major unit) plus an ISO 4217 currency
/// code.
///
/// Never binary floating point.
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
        guard let info = Currency.lookup(currency) else { throw .unknownCurrency(currency) }
        let milli = try parseDecimal(text, maxDecimals: info.decimals, scale: 3)
        return Money(milliunits: milli, currency: info.code)
    }

    /// Parses a plain decimal string into an integer scaled by `10^scale`, rejecting more than
    /// `maxDecimals` fractional digits.
    package static func parseDecimal(_ text: String, maxDecimals: Int, scale: Int) throws(MoneyError) -> Int64 {
        var utf8 = text.utf8[...]
        while let first = utf8.first, first == 0x20 || first == 0x09 { utf8 = utf8.dropFirst() }
        while let last = utf8.last, last == 0x20 || last == 0x09 { utf8 = utf8.dropLast() }
        var negative = false
        if let first = utf8.first, first == 0x2D || first == 0x2B {
            negative = first == 0x2D
            utf8 = utf8.dropFirst()
        }
        var whole: Int64 = 0
        var wholeDigits = 0
        var fraction: [UInt8] = []
        var sawPoint = false
        for byte in utf8 {
            if byte == 0x2E {
                guard !sawPoint else { throw .notADecimal(text) }
                sawPoint = true
            } else if byte >= 0x30 && byte <= 0x39 {
                if sawPoint {
                    fraction.append(byte - 0x30)
                } else {
                    wholeDigits += 1
                    guard wholeDigits <= 15 else { throw .outOfRange(text) }
                    whole = whole * 10 + Int64(byte - 0x30)
                }
            } else {
                throw .notADecimal(text)
            }
        }
        guard wholeDigits > 0 || !fraction.isEmpty, !(sawPoint && fraction.isEmpty) else { throw .notADecimal(text) }
        // Trailing zeros beyond the currency's decimals are harmless ("9.990" USD).
        while fraction.count > maxDecimals, fraction.last == 0 { fraction.removeLast() }
        guard fraction.count <= maxDecimals else { throw .tooManyDecimals(text, allowed: maxDecimals) }
        var scaled = whole
        for _ in 0..<scale {
            let (next, overflow) = scaled.multipliedReportingOverflow(by: 10)
            guard !overflow else { throw .outOfRange(text) }
            scaled = next
        }
        var fractionScaled: Int64 = 0
        for digit in fraction { fractionScaled = fractionScaled * 10 + Int64(digit) }
        for _ in fraction.count..<scale { fractionScaled *= 10 }
        let (result, overflow) = scaled.addingReportingOverflow(fractionScaled)
        guard !overflow else { throw .outOfRange(text) }
        return negative ? -result : result
    }

    /// Formats with the currency's own decimals (`9.99`, `1200`, `1.250`), no grouping, `.`
    /// as separator; exact, from integers.
    public var formatted: String {
        let decimals = Currency.lookup(currency)?.decimals ?? 2
        return Money.format(milliunits: milliunits, decimals: decimals)
    }

    /// The magnitude of `milliunits` in units of `decimals` fractional digits (0...3), rounded half away from zero:
    /// the digits ``format(milliunits:decimals:)`` writes.
    package static func roundedUnits(milliunits: Int64, decimals: Int) -> UInt64 {
        var divisor: UInt64 = 1
        for _ in 0..<(3 - decimals) { divisor *= 10 }
        return (milliunits.magnitude + divisor / 2) / divisor
    }

    /// Formats `milliunits` with `decimals` fractional digits, rounding half away from zero.
    public static func format(milliunits: Int64, decimals: Int) -> String {
        if (0...3).contains(decimals) {
            // Every amount of every report row: digits by hand into one buffer (at most 20 digits, a sign and a dot).
            return String(unsafeUninitializedCapacity: formatMaxLength) {
                writeFormatted(milliunits: milliunits, decimals: decimals, into: $0) ?? 0
            }
        }
        let negative = milliunits < 0
        let units = roundedUnits(milliunits: milliunits, decimals: decimals)
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

    /// The longest text ``writeFormatted(milliunits:decimals:into:)`` writes: a sign, 20 digits and a dot.
    package static let formatMaxLength = 22

    /// Writes ``format(milliunits:decimals:)``'s text into `buffer` (``formatMaxLength`` bytes at least) and returns
    /// its length; nil when `decimals` is not 0...3.
    package static func writeFormatted(milliunits: Int64, decimals: Int, into buffer: UnsafeMutableBufferPointer<UInt8>)
        -> Int?
    {
        guard (0...3).contains(decimals) else { return nil }
        let negative = milliunits < 0
        let units = roundedUnits(milliunits: milliunits, decimals: decimals)
        var count = 1
        var rest = units / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        let digits = max(count, decimals + 1)
        let sign = negative && units != 0 ? 1 : 0
        let length = sign + digits + (decimals > 0 ? 1 : 0)
        if sign == 1 { buffer[0] = 0x2D }
        var position = length - 1
        rest = units
        for index in 0..<digits {
            if decimals > 0 && index == decimals {
                buffer[position] = 0x2E
                position -= 1
            }
            buffer[position] = UInt8(truncatingIfNeeded: 48 + rest % 10)
            rest /= 10
            position -= 1
        }
        return length
    }

    /// Multiplies by an exact rate in parts per million, rounding half away from zero.
    public func scaled(byPPM ppm: Int64) -> Money {
        let product = milliunits.multipliedFullWidth(by: ppm)
        // Amounts stay far below 2^63 / 10^6 in practice; fall back to wide math anyway.
        let wide = (Int128(product.high) << 64) | Int128(product.low)
        let half = Int128(500_000)
        let rounded = wide >= 0 ? (wide + half) / 1_000_000 : (wide - half) / 1_000_000
        return Money(milliunits: Int64(clamping: rounded), currency: currency)
    }
}
