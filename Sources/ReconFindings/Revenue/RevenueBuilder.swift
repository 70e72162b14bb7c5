import AppleData
import Foundation
import ReconModel
import ReconStorage

/// Sums Production revenue per day, product and currency from transaction groups.
///
/// Sandbox, Xcode and LocalTesting never count, nor does a family member's access; duplicates count once; a
/// refund reduces net on the day of the refund, and a refund Apple reversed stays there while the reversal adds
/// it back on the day of the reversal; a production purchase booked as sandbox counts (and is tallied as
/// recovered). Never sums across currencies.
public struct RevenueBuilder {
    package struct Key: Hashable, Comparable {
        package var day: Int
        package var productID: String
        package var currency: String
        package static func < (a: Key, b: Key) -> Bool {
            (a.day, a.productID, a.currency) < (b.day, b.productID, b.currency)
        }
    }

    package struct Sums {
        package var units: Int64 = 0
        package var gross: Int64 = 0
        package var refunds: Int64 = 0
        /// Net per proceeds rate (ppm): proceeds are the line's net × rate, rounded once to the
        /// currency's smallest unit, not a sum of per-transaction roundings.
        package var netByRate: [Int64: Int64] = [:]
        /// Proceeds a report or the catalog stated, net of refunds, in `statedCurrency`.
        package var stated: Int64 = 0
        package var statedCurrency: String?
        /// Net per proceeds rate of the sales no report or catalog row priced.
        package var unstatedNetByRate: [Int64: Int64] = [:]
        /// The weakest source so far; nil before the first sale or refund.
        package var source: ProceedsSource?
        /// Stated proceeds in more than one currency: the line falls back to the estimate.
        package var mixedCurrencies = false

        package func estimatedProceeds(currency: String) -> Int64 {
            Self.estimate(netByRate, currency: currency)
        }

        package static func estimate(_ netByRate: [Int64: Int64], currency: String) -> Int64 {
            netByRate.keys.sorted().reduce(0) { total, rate in
                Money.sum(
                    total,
                    Money(milliunits: netByRate[rate] ?? 0, currency: currency).scaledToMinorUnit(byPPM: rate)
                        .milliunits)
            }
        }

        /// Adds one sale or refund: the same sums whatever the order parts come in.
        package mutating func add(_ part: RevenuePart) {
            units = Money.sum(units, part.units)
            gross = Money.sum(gross, part.gross)
            refunds = Money.sum(refunds, part.refunds)
            netByRate[part.rate] = Money.sum(netByRate[part.rate] ?? 0, part.net)
            addProceeds(part.stated.map { ($0, part.statedSource ?? .estimate) }, net: part.net, rate: part.rate)
        }

        /// Adds proceeds of one sale (positive) or refund (negative): `stated` per the source, else estimated from
        /// `net` at `rate`.
        package mutating func addProceeds(_ stated: (amount: Money, source: ProceedsSource)?, net: Int64, rate: Int64) {
            if let stated {
                if let current = statedCurrency, current != stated.amount.currency { mixedCurrencies = true }
                statedCurrency = statedCurrency ?? stated.amount.currency
                self.stated = Money.sum(self.stated, stated.amount.milliunits)
                source = max(source ?? stated.source, stated.source)
            } else {
                unstatedNetByRate[rate] = Money.sum(unstatedNetByRate[rate] ?? 0, net)
                source = .estimate
            }
        }

        /// The line's proceeds, their currency and source: stated and estimated parts in one currency, or the
        /// whole estimate when they cannot be added up.
        package func proceeds(currency: String) -> (Int64, String, ProceedsSource) {
            let estimated = Self.estimate(unstatedNetByRate, currency: currency)
            guard let statedCurrency else { return (estimated, currency, .estimate) }
            if mixedCurrencies || (statedCurrency != currency && !unstatedNetByRate.isEmpty) {
                return (estimatedProceeds(currency: currency), currency, .estimate)
            }
            return (Money.sum(stated, estimated), statedCurrency, source ?? .estimate)
        }
    }

    private let timeZone: TimeZone
    private let context: DetectionContext
    /// Prices each sale's proceeds.
    private let pricer: ProceedsPricer
    private let fromDay: Int?
    private let toDay: Int?
    private var sums: [Key: Sums] = [:]
    /// Revenue counted although the ledger filed it as Sandbox, per currency.
    public private(set) var recoveredFromSandbox: [String: Int64] = [:]
    /// Revenue the ledger counts as Production that the evidence shows is not, per currency.
    public private(set) var excludedAsSandbox: [String: Int64] = [:]
    /// Counted rows with no price anywhere (ledger, Apple, catalog).
    public private(set) var unpricedTransactions = 0
    /// Extra ledger rows of duplicated transactions, not counted.
    public private(set) var duplicateRowsIgnored = 0
    /// What the transaction added last contributed to each row (for `revenue_changes.csv`): at most
    /// one contribution per row, so memory does not grow with the ledger.
    public private(set) var lastContributions: [RevenueContribution] = []
    /// The parts the transaction added last added to the lines, in the order added.
    public private(set) var lastParts: [RevenuePart] = []
    /// What the transaction added last added to the counts beside the lines.
    public private(set) var lastCounters = TransactionCounters()
    /// The rows as a report kept them, for a report that added up only the lines that changed
    /// (``restored(timeZone:context:rows:counters:)``); nil: the rows come from the sums.
    private var restoredRows: [RevenueRow]?
    /// The changes to days the previous report showed (CONTRACT §5, `revenue_changes.csv`), once
    /// detection has compared every transaction (``RevenueChangeTracker``).
    public var changes: [RevenueChange] = []

    /// - Parameters:
    ///   - timeZone: decides the calendar day of a purchase or refund.
    ///   - from, to: inclusive day bounds (days since 1970-01-01), nil for open.
    ///   - appleProceeds: Apple's stated proceeds per unit; nil: the catalog's or the estimate.
    public init(
        timeZone: TimeZone, context: DetectionContext, from: Int? = nil, to: Int? = nil,
        appleProceeds: AppleProceeds? = nil
    ) {
        self.timeZone = timeZone
        self.context = context
        pricer = ProceedsPricer(context: context, appleProceeds: appleProceeds)
        fromDay = from
        toDay = to
    }

    /// The calendar day of `millis` in the builder's time zone.
    public func day(of millis: Int64) -> Int {
        Timestamp.dayAndSecond(millis, in: timeZone).day
    }

    private func inRange(_ day: Int) -> Bool {
        if let fromDay, day < fromDay { return false }
        if let toDay, day > toDay { return false }
        return true
    }

    /// Adds one transaction's revenue.
    public mutating func add(_ group: TransactionGroup) {
        add(TransactionFacts(group, in: context))
    }

    /// Adds one transaction's revenue from facts already worked out for the detectors.
    public mutating func add(_ facts: TransactionFacts) {
        let group = facts.group
        lastContributions.removeAll(keepingCapacity: true)
        lastParts.removeAll(keepingCapacity: true)
        lastCounters = TransactionCounters()
        guard let record = RevenuePolicy.countedRecord(facts) else {
            // Booked as revenue, but the evidence says it was a test purchase (a family member's access is no
            // purchase at all).
            if !facts.familyShared, facts.bookedAsAnotherID == nil,
                let booked = group.records.filter(\.ledgerCountsAsRevenue).min(by: LedgerTransaction.bookingOrder),
                let value = facts.value(of: booked)
            {
                excludedAsSandbox[value.currency] = Money.sum(excludedAsSandbox[value.currency] ?? 0, value.milliunits)
                lastCounters.excludedAsSandbox = value
            }
            return
        }
        let duplicates = max(0, group.records.count(where: facts.isCredited) - 1)
        duplicateRowsIgnored += duplicates
        lastCounters.duplicateRowsIgnored = duplicates
        guard let value = facts.value(of: record) else {
            unpricedTransactions += 1
            lastCounters.unpriced = true
            return
        }
        let rate = pricer.rate(of: record)
        if !record.environment.isProduction {
            recoveredFromSandbox[value.currency] = Money.sum(
                recoveredFromSandbox[value.currency] ?? 0, value.milliunits)
            lastCounters.recoveredFromSandbox = value
        }
        let stated = pricer.stated(facts, record, value: value)
        let purchaseDay = day(of: record.purchaseDate)
        if inRange(purchaseDay) {
            let key = Key(day: purchaseDay, productID: record.productID, currency: value.currency)
            apply(
                RevenuePart(
                    day: purchaseDay, productID: record.productID, currency: value.currency,
                    units: Int64(record.quantity), gross: value.milliunits, refunds: 0, rate: rate,
                    net: value.milliunits, stated: stated?.amount, statedSource: stated?.source))
            contribute(key, group.transactionID, gross: value.milliunits, refunds: 0, refundSource: nil)
        }
        let line = Sale(
            productID: record.productID, rate: rate, transactionID: group.transactionID, value: value, proceeds: stated)
        // Refunds Apple reversed stay on their day, and each reversal is booked on its own day (Apple's books).
        for reversed in RevenuePolicy.reversedRefunds(facts, of: value) {
            bookRefund(
                reversed.amount, at: reversed.refundedAt, line,
                source: FindingText.describe(reversed.reversal.refundEvidence))
            bookRefund(
                Money(milliunits: Money.difference(0, reversed.amount.milliunits), currency: value.currency),
                at: reversed.reversedAt, line,
                reversalSource: FindingText.describe(reversed.reversal.reversalEvidence))
        }
        if let refund = RevenuePolicy.refund(facts, of: value) {
            var source: String?
            switch facts.refund {
            case .refunded(_, let evidence): source = FindingText.describe(evidence)
            case .upgraded(_, let evidence):
                source = "\(FindingText.describe(evidence)): the prorated refund of a subscription upgrade"
            case .notRefunded, .familyRevoked: break
            }
            bookRefund(refund.amount, at: refund.date, line, source: source)
        }
    }

    /// The sale a refund takes back: its line, rate, value and stated proceeds.
    private struct Sale {
        var productID: String
        var rate: Int64
        var transactionID: String
        var value: Money
        var proceeds: (amount: Money, source: ProceedsSource)?
    }

    /// Books `amount` as refunded on the day of `date` (a negative amount: a refund Apple reversed, given back),
    /// with the share of the sale's proceeds it takes back (or gives back).
    private mutating func bookRefund(
        _ amount: Money, at date: Int64, _ line: Sale, source: String? = nil, reversalSource: String? = nil
    ) {
        let refundDay = day(of: date)
        guard inRange(refundDay) else { return }
        let key = Key(day: refundDay, productID: line.productID, currency: amount.currency)
        let returned = line.proceeds.map {
            (amount: ProceedsPricer.returned($0.amount, refunded: amount, of: line.value), source: $0.source)
        }
        apply(
            RevenuePart(
                day: refundDay, productID: line.productID, currency: amount.currency, units: 0, gross: 0,
                refunds: amount.milliunits, rate: line.rate, net: -amount.milliunits, stated: returned?.amount,
                statedSource: returned?.source))
        contribute(
            key, line.transactionID, gross: 0, refunds: amount.milliunits, refundSource: source,
            reversalSource: reversalSource)
    }

    /// Adds one part to its line (one lookup of the line), and to what the transaction added last.
    private mutating func apply(_ part: RevenuePart) {
        sums[Key(day: part.day, productID: part.productID, currency: part.currency), default: Sums()].add(part)
        lastParts.append(part)
    }

    private mutating func contribute(
        _ key: Key, _ transactionID: String, gross: Int64, refunds: Int64, refundSource: String?,
        reversalSource: String? = nil
    ) {
        let id = RevenueContribution.Key(
            date: Timestamp.dayString(key.day), productID: key.productID, currency: key.currency,
            transactionID: transactionID)
        let index = lastContributions.firstIndex { $0.key == id }
        var item =
            index.map { lastContributions[$0] } ?? RevenueContribution(key: id, gross: 0, refunds: 0, refundSource: nil)
        item.gross += gross
        item.refunds += refunds
        item.refundSource = refundSource ?? item.refundSource
        item.reversalSource = reversalSource ?? item.reversalSource
        if let index { lastContributions[index] = item } else { lastContributions.append(item) }
    }

    /// The rows, by day, product, currency.
    public func rows() -> [RevenueRow] {
        if let restoredRows { return restoredRows }
        return sums.keys.sorted().map { key in Self.row(key, sums[key] ?? Sums()) }
    }

    private static func row(_ key: Key, _ s: Sums) -> RevenueRow {
        let (proceeds, proceedsCurrency, source) = s.proceeds(currency: key.currency)
        return RevenueRow(
            day: key.day, productID: key.productID, currency: key.currency, units: s.units, gross: s.gross,
            refunds: s.refunds, estimatedProceeds: s.estimatedProceeds(currency: key.currency),
            proceeds: proceeds, proceedsCurrency: proceedsCurrency, proceedsSource: source)
    }

    /// One line added up from its parts alone, as ``rows()`` shows it when these are all its parts.
    public static func row(day: Int, productID: String, currency: String, parts: [RevenuePart]) -> RevenueRow {
        var sums = Sums()
        for part in parts { sums.add(part) }
        return row(Key(day: day, productID: productID, currency: currency), sums)
    }

    /// The revenue a report kept (its rows, already added up) with the counts beside them.
    public static func restored(
        timeZone: TimeZone, context: DetectionContext, rows: [RevenueRow], counters: RevenueCounters
    ) -> RevenueBuilder {
        var builder = RevenueBuilder(timeZone: timeZone, context: context)
        builder.restoredRows = rows
        builder.recoveredFromSandbox = counters.recoveredFromSandbox
        builder.excludedAsSandbox = counters.excludedAsSandbox
        builder.unpricedTransactions = counters.unpricedTransactions
        builder.duplicateRowsIgnored = counters.duplicateRowsIgnored
        return builder
    }
}
