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
