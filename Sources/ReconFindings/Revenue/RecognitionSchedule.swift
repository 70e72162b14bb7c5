import ReconModel

/// The exact rule of CONTRACT §5.1 for one sale: what it billed, recognized, released and reversed by an instant.
///
/// Recognition is linear in time over `[start, end)`, and cumulative: by instant `t` the sale has recognized
/// `amount × (min(t, end) − start) / (end − start)`, rounded half away from zero to the currency's minor unit, so a
/// month recognizes the difference between its end and its start and the months add up to the amount exactly.
/// Events count from their instant on: by `t` means strictly before `t`, so a month `[first, next)` holds what
/// happened in it, and a report as of the first instant of the next month closes the month.
public enum RecognitionSchedule {
    /// The sale's running totals by an instant, in milliunits of the sale's currency.
    public struct Totals: Sendable, Hashable {
        /// The amount once the purchase happened (billings count at the purchase).
        public var billed: Int64 = 0
        /// Recognized, before reversals.
        public var recognized: Int64 = 0
        /// Deferred revenue a refund released (negative back when Apple reversed it).
        public var released: Int64 = 0
        /// Recognized revenue a refund reversed.
        public var reversed: Int64 = 0

        public init(billed: Int64 = 0, recognized: Int64 = 0, released: Int64 = 0, reversed: Int64 = 0) {
            self.billed = billed
            self.recognized = recognized
            self.released = released
            self.reversed = reversed
        }

        /// Still deferred: billed, less recognized, less released.
        public var deferred: Int64 { Money.difference(Money.difference(billed, recognized), released) }
        /// Recognized less reversed: the sale's net revenue so far.
        public var netRecognized: Int64 { Money.difference(recognized, reversed) }
        /// Given back to the customer: released plus reversed.
        public var refunded: Int64 { Money.sum(released, reversed) }

        /// What happened between `earlier` and `self`.
        public func minus(_ earlier: Totals) -> Totals {
            Totals(
                billed: Money.difference(billed, earlier.billed),
                recognized: Money.difference(recognized, earlier.recognized),
                released: Money.difference(released, earlier.released),
                reversed: Money.difference(reversed, earlier.reversed))
        }

        public var isZero: Bool { billed == 0 && recognized == 0 && released == 0 && reversed == 0 }
    }

    /// The sale's totals by instant `t` (events strictly before `t`).
    public static func totals(_ sale: RecognitionSale, by t: Int64) -> Totals {
        var totals = Totals()
        guard sale.start < t else { return totals }
        let amount = sale.amount.milliunits
        totals.billed = amount
        // While a refund stands, recognition stops where it left off (the service ended at the refund).
        var frozen: Int64?
        for refund in sale.refunds where refund.at < t {
            let recognizedAtRefund = frozen ?? linear(sale, at: refund.at)
            let deferredAtRefund = Money.difference(Money.difference(amount, recognizedAtRefund), totals.released)
            let netRecognized = Money.difference(recognizedAtRefund, totals.reversed)
            var released: Int64
            var reversed: Int64
            var recognizedAfter = recognizedAtRefund
            switch refund.kind {
            case .full:
                // A refund: what is still deferred is released, what was recognized is reversed.
                released = deferredAtRefund
                reversed = netRecognized
            case .prorated(let share):
                // Apple's `revocationPercentage` of the amount: taken from the deferred balance first, the rest
                // reversed; the service ends at the refund, so what stays deferred is recognized then.
                let share = min(max(share, 0), 100_000)
                let refunded = share == 100_000 ? amount : prorated(amount, share, currency: sale.amount.currency)
                released = min(refunded, max(0, deferredAtRefund))
                reversed = min(Money.difference(refunded, released), max(0, netRecognized))
                recognizedAfter = Money.sum(recognizedAfter, Money.difference(deferredAtRefund, released))
            case .upgrade:
                // An upgrade whose refund Apple does not quantify: what is deferred is released, nothing reversed.
                released = deferredAtRefund
                reversed = 0
            }
            totals.released = Money.sum(totals.released, released)
            totals.reversed = Money.sum(totals.reversed, reversed)
            frozen = recognizedAfter
            if let reversedAt = refund.reversedAt, reversedAt < t {
                // A reversed refund puts back what it took, and recognition goes on as if it had not happened.
                totals.released = Money.difference(totals.released, released)
                totals.reversed = Money.difference(totals.reversed, reversed)
                frozen = nil
            }
        }
        totals.recognized = frozen ?? linear(sale, at: t)
        return totals
    }

    /// Recognized by `t` with no refund: linear over the period, the whole amount once it ended.
    public static func linear(_ sale: RecognitionSale, at t: Int64) -> Int64 {
        let amount = sale.amount.milliunits
        guard let end = sale.end, end > sale.start else { return t > sale.start ? amount : 0 }
        if t <= sale.start { return 0 }
        if t >= end { return amount }
        let step = minorUnit(sale.amount.currency)
        let numerator = Int128(amount) * Int128(t - sale.start)
        let denominator = Int128(end - sale.start) * Int128(step)
        return Int64(roundHalfAwayFromZero(numerator, denominator) * Int128(step))
    }

    /// `amount × share / 100 000` (thousandths of a percent), rounded to the currency's minor unit.
    static func prorated(_ amount: Int64, _ share: Int, currency: String) -> Int64 {
        let step = minorUnit(currency)
        let numerator = Int128(amount) * Int128(share)
        return Int64(roundHalfAwayFromZero(numerator, 100_000 * Int128(step)) * Int128(step))
    }

    /// Milliunits in the currency's smallest unit (10 for cents, 1000 for yen).
    static func minorUnit(_ currency: String) -> Int64 {
        let decimals = Currency.lookup(currency)?.decimals ?? 2
        var step: Int64 = 1
        for _ in 0..<max(0, 3 - decimals) { step *= 10 }
        return step
    }

    static func roundHalfAwayFromZero(_ numerator: Int128, _ denominator: Int128) -> Int128 {
        let half = denominator / 2
        return numerator >= 0 ? (numerator + half) / denominator : (numerator - half) / denominator
    }
}
