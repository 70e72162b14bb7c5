/// Overflow-checked money arithmetic: no amount, however large, traps the program.
///
/// Import rejects a row whose total does not fit (CONTRACT §1.1); what is summed later from many
/// rows, or read from an older store, goes through these so a sum that cannot be held is a
/// visible capped value and a run warning, never a crash.
extension Money {
    /// `self × quantity`, exact; nil when the product does not fit in milliunits.
    public func times(_ quantity: Int) -> Money? {
        let (product, overflow) = milliunits.multipliedReportingOverflow(by: Int64(quantity))
        return overflow ? nil : Money(milliunits: product, currency: currency)
    }

    /// The largest magnitude a sum may reach; a sum that hits it is reported as overflowed.
    public static let saturatedMilliunits = Int64.max

    /// `a + b`, stopping at the bounds of the money type instead of trapping.
    public static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (total, overflow) = a.addingReportingOverflow(b)
        guard overflow else { return total }
        return b < 0 ? -saturatedMilliunits : saturatedMilliunits
    }

    /// `a - b`, stopping at the bounds of the money type instead of trapping.
    public static func difference(_ a: Int64, _ b: Int64) -> Int64 {
        let (total, overflow) = a.subtractingReportingOverflow(b)
        guard overflow else { return total }
        return b > 0 ? -saturatedMilliunits : saturatedMilliunits
    }

    /// Whether a sum stopped at the bounds of the money type (its true value is unknown).
    public static func isSaturated(_ milliunits: Int64) -> Bool {
        milliunits == saturatedMilliunits || milliunits <= -saturatedMilliunits
    }
}
