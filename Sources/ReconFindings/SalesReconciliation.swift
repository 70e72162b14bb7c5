import AppleData
import Foundation
import ReconModel
import ReconStorage

/// One key of the sales reconciliation: a calendar day in the sales reports' time zone, a
/// product, a storefront (ISO 3166-1 alpha-3) and a customer currency.
public struct SalesKey: Sendable, Hashable, Comparable {
    /// Days since 1970-01-01.
    public var day: Int
    public var productID: String
    public var storefront: String
    public var currency: String

    public init(day: Int, productID: String, storefront: String, currency: String) {
        self.day = day
        self.productID = productID
        self.storefront = storefront
        self.currency = currency
    }

    /// `2026-03-31|com.example.coins|DEU|EUR`: the identity of a finding about this key.
    public var subject: String { [Timestamp.dayString(day), productID, storefront, currency].joined(separator: "|") }

    public static func < (a: SalesKey, b: SalesKey) -> Bool {
        (a.day, a.productID, a.storefront, a.currency) < (b.day, b.productID, b.storefront, b.currency)
    }
}

/// Apple's and the ledger's figures for one key.
public struct SalesReconciliationLine: Sendable, Hashable {
    public var key: SalesKey
    /// Units in Apple's report (refund rows subtract).
    public var appleUnits: Int64 = 0
    /// Units the ledger sold that day minus units refunded that day.
    public var ledgerUnits: Int64 = 0
    /// Customer amount in Apple's report, milliunits of the key's currency.
    public var appleAmount: Int64 = 0
    /// The ledger's customer amount, milliunits: purchases minus refunds that day.
    public var ledgerAmount: Int64 = 0
    /// Ledger rows counted on this key, by record id.
    public var recordIDs: [String] = []
    /// Their Apple transaction ids, sorted, distinct.
    public var transactionIDs: [String] = []
    /// Their users, sorted, distinct.
    public var userIDs: [String] = []

    public init(key: SalesKey) {
        self.key = key
    }

    /// Both sides agree on units and on the amount.
    public var matches: Bool { appleUnits == ledgerUnits && appleAmount == ledgerAmount }
}

/// Apple's Summary Sales Reports beside the ledger (CONTRACT §4 `SALES_REPORT_MISMATCH`, §5
/// `sales_reconciliation.csv`).
///
/// The ledger side is what the revenue report counts (``RevenuePolicy``): each Production
/// purchase's counted row on the calendar day of its purchase, its refund on the day of the
/// refund (a partial refund as Apple's report shows it: 0 units, the refunded amount), a refund Apple reversed on the day of the refund and its reversal on the day of the
/// reversal, all in the sales reports' time zone (Apple's day for worldwide agreements is
/// America/Los_Angeles). Only days an imported report covers are compared; a key on such a day
/// present on either side is a line. Apple's side is this app's rows only (``SalesReportApp``): a
/// report covers every app of the developer account, and rows of other apps are left out and
/// counted (``rowsOfOtherApps``). Memory: one entry per key of the covered days.
///
/// `asOf` is a cut-off here too (CONTRACT §5: what was purchased or refunded after it does not enter
/// that report): a report's day is compared only once it has ended at `asOf` in the reports'
/// time zone. Apple's figures for a day cannot be split at an instant, so the day that holds
/// `asOf` (and any later one) is left out on both sides rather than compared half against whole.
public struct SalesReconciliation {
    /// Apple's rows summed per key and `Parent Identifier` (which app a row belongs to is decided per product
    /// and parent, once detection has seen the ledger's products).
    private struct AppleKey: Hashable {
        var key: SalesKey
        var parentIdentifier: String?
    }

    private struct AppleSums {
        var units: Int64 = 0
        var amount: Int64 = 0
        var rows = 0
    }

    private let timeZone: TimeZone
    /// The days an imported report covers, ascending.
    public let comparedDays: [Int]
    private let covered: Set<Int>
    private let app: SalesReportApp
    /// Every product id of the ledger rows detection saw.
    private var ledgerProducts: Set<String> = []
    private var apple: [AppleKey: AppleSums] = [:]
    private var entries: [SalesKey: SalesReconciliationLine] = [:]
    private var records: [SalesKey: [(record: String, transaction: String, user: String)]] = [:]
    /// Sums that overflowed Int64 (never expected; kept so nothing is silently wrong).
    public private(set) var overflowedKeys: Set<SalesKey> = []

    /// - Parameters:
    ///   - timeZone: the sales reports' time zone.
    ///   - days: the days imported reports cover.
    ///   - apple: the reports' in-app purchase rows.
    ///   - asOf: "now" of the report (epoch ms): only days that ended by then are compared.
    ///   - app: what tells this app's rows from other apps' (the ledger's products are added as detection
    ///     sees them).
    public init(
        timeZone: TimeZone, days: [Int], apple: [SalesReportRow], asOf: Int64, app: SalesReportApp = SalesReportApp()
    ) {
        self.timeZone = timeZone
        self.app = app
        let firstOpenDay = Timestamp.dayAndSecond(asOf, in: timeZone).day
        let ended = Set(days.filter { $0 < firstOpenDay })
        comparedDays = ended.sorted()
        covered = ended
        for row in apple where covered.contains(row.day) {
            let key = SalesKey(
                day: row.day, productID: row.productID, storefront: row.storefront,
                currency: row.customerPrice.currency)
            let appleKey = AppleKey(key: key, parentIdentifier: row.parentIdentifier)
            var sums = self.apple[appleKey] ?? AppleSums()
            guard let amount = row.customerAmount,
                let units = Self.add(sums.units, row.units),
                let sum = Self.add(sums.amount, amount.milliunits)
            else {
                overflowedKeys.insert(key)
                continue
            }
            sums.units = units
            sums.amount = sum
            sums.rows += 1
            self.apple[appleKey] = sums
        }
    }

    /// Adds one transaction's ledger side: its purchase and its refund, each on its own day, and a refund Apple
    /// reversed on its day with the reversal on its own (``LedgerEvents``).
    public mutating func add(_ facts: TransactionFacts) {
        guard !covered.isEmpty else { return }
        add(LedgerEvents.of(facts, timeZone: timeZone, pricer: nil), products: facts.group.records.map(\.productID))
    }

    /// Adds a transaction's events, and the product ids of its ledger rows (which say which of Apple's rows are
    /// this app's).
    public mutating func add(_ events: [LedgerEvent], products: some Sequence<String>) {
        guard !covered.isEmpty else { return }
        ledgerProducts.formUnion(products)
        for event in events { add(event) }
    }

    /// Adds one event: on a compared day, to its key's ledger side.
    package mutating func add(_ event: LedgerEvent) {
        guard covered.contains(event.day) else { return }
        let key = SalesKey(
            day: event.day, productID: event.productID, storefront: event.storefront, currency: event.currency)
        var line = entries[key] ?? SalesReconciliationLine(key: key)
        guard let newUnits = Self.add(line.ledgerUnits, event.units),
            let newAmount = Self.add(line.ledgerAmount, event.amount)
        else {
            overflowedKeys.insert(key)
            return
        }
        line.ledgerUnits = newUnits
        line.ledgerAmount = newAmount
        entries[key] = line
        records[key, default: []].append((event.recordID, event.transactionID, event.userID))
    }

    /// The product ids of Apple's rows on the compared days (of any app).
    public var appleProducts: Set<String> { Set(apple.keys.map(\.key.productID)) }

    /// Whether Apple's rows under `appleKey` are this app's.
    private func isThisApps(_ appleKey: AppleKey) -> Bool {
        app.owns(
            productID: appleKey.key.productID, parentIdentifier: appleKey.parentIdentifier,
            ledgerProducts: ledgerProducts)
    }

    /// Apple's rows of the compared days that belong to other apps of the developer account: left out of the
    /// comparison.
    public var rowsOfOtherApps: Int {
        apple.filter { !isThisApps($0.key) }.values.reduce(0) { $0 + $1.rows }
    }

    /// The SKUs of those rows, sorted, distinct.
    public var skusOfOtherApps: [String] {
        Array(Set(apple.keys.filter { !isThisApps($0) }.map(\.key.productID))).sorted()
    }

    /// Every key of the compared days present on either side (Apple's side: this app's rows), in key order.
    public func lines() -> [SalesReconciliationLine] {
        var all = entries
        for (appleKey, sums) in apple where isThisApps(appleKey) {
            var line = all[appleKey.key] ?? SalesReconciliationLine(key: appleKey.key)
            line.appleUnits = Money.sum(line.appleUnits, sums.units)
            line.appleAmount = Money.sum(line.appleAmount, sums.amount)
            all[appleKey.key] = line
        }
        return all.keys.sorted().map { key in
            var line = all[key] ?? SalesReconciliationLine(key: key)
            let rows = records[key] ?? []
            line.recordIDs = Array(Set(rows.map(\.record))).sorted()
            line.transactionIDs = Array(Set(rows.map(\.transaction))).sorted()
            line.userIDs = Array(Set(rows.map(\.user))).sorted()
            return line
        }
    }

    private static func add(_ a: Int64, _ b: Int64) -> Int64? {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : sum
    }
}
