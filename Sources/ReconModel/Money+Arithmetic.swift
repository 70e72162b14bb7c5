import Foundation

/// Exact arithmetic on amounts and amounts as text.
extension Money {
    /// Whether two amounts are the same money (currency codes compared case-insensitively).
    package func isSame(as other: Money) -> Bool {
        milliunits == other.milliunits && currency.uppercased() == other.currency.uppercased()
    }

    /// How far apart two amounts are (never negative); nil when either is unknown or they are in
    /// different currencies.
    package static func difference(_ lhs: Money?, _ rhs: Money?) -> Money? {
        guard let lhs, let rhs, lhs.currency.uppercased() == rhs.currency.uppercased() else { return nil }
        let gap = Money.difference(lhs.milliunits, rhs.milliunits)
        return Money(milliunits: gap < 0 ? Money.difference(0, gap) : gap, currency: lhs.currency.uppercased())
    }

    /// `9.99 USD`.
    package var text: String { "\(formatted) \(currency)" }
}

/// Sums amounts per currency and remembers rows whose value is unknown.
///
/// ``amount`` is only given when it is complete: one currency and every value known. A partial
/// sum would understate the money at stake, so the finding leaves it empty and the detail says why.
package struct MoneyTally {
    private var totals: [String: Int64] = [:]
    private var currencies: [String] = []
    package private(set) var unknown: [String] = []
    package private(set) var count = 0

    /// Adds one row's value; `nil` marks the row's value as unknown.
    package mutating func add(_ money: Money?, for recordID: String) {
        count += 1
        guard let money else {
            unknown.append(recordID)
            return
        }
        if totals[money.currency] == nil { currencies.append(money.currency) }
        totals[money.currency] = Money.sum(totals[money.currency] ?? 0, money.milliunits)
    }

    /// The total, when it is in one currency and every value is known.
    package var amount: Money? {
        guard unknown.isEmpty, currencies.count == 1, let code = currencies.first, let milli = totals[code] else {
            return nil
        }
        return Money(milliunits: milli, currency: code)
    }

    /// `9.99 USD`, `9.99 USD + 1200 JPY`, with `(no price for r3)` when some are unknown.
    package var text: String {
        let known = currencies.compactMap { code in
            totals[code].map { Money(milliunits: $0, currency: code).text }
        }
        let missing = unknown.isEmpty ? "" : " (no price for \(unknown.joined(separator: ", ")))"
        if known.isEmpty { return "an unknown amount" + missing }
        return known.joined(separator: " + ") + missing
    }

    package init(unknown: [String] = [], count: Int = 0) {
        self.unknown = unknown
        self.count = count
    }
}

extension Money {
    /// The amount rounded to the currency's smallest unit (cents for USD, yen for JPY), half away
    /// from zero: what a computed amount (a prorated refund, estimated proceeds) is worth as money
    /// that can be paid, so that sums of printed amounts foot.
    public var roundedToMinorUnit: Money {
        let decimals = Currency.lookup(currency)?.decimals ?? 2
        var step: Int64 = 1
        for _ in 0..<max(0, 3 - decimals) { step *= 10 }
        guard step > 1 else { return self }
        let magnitude = milliunits.magnitude
        let rounded = (magnitude + UInt64(step) / 2) / UInt64(step) * UInt64(step)
        let value = Int64(clamping: rounded)
        return Money(milliunits: milliunits < 0 ? -value : value, currency: currency)
    }
}

extension Money {
    /// `self × ppm / 1 000 000`, rounded once (half away from zero) to the currency's smallest unit.
    public func scaledToMinorUnit(byPPM ppm: Int64) -> Money {
        let decimals = Currency.lookup(currency)?.decimals ?? 2
        var step: Int128 = 1
        for _ in 0..<max(0, 3 - decimals) { step *= 10 }
        let wide = Int128(milliunits) * Int128(ppm)
        let divisor = 1_000_000 * step
        let half = divisor / 2
        let units = wide >= 0 ? (wide + half) / divisor : (wide - half) / divisor
        return Money(milliunits: Int64(clamping: units * step), currency: currency)
    }
}
