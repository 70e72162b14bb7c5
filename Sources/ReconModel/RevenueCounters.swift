/// What one transaction adds to the counts the revenue report shows beside its lines.
public struct TransactionCounters: Sendable, Hashable {
    /// Booked as Production revenue by the ledger, but the evidence says it was a test purchase.
    public var excludedAsSandbox: Money?
    /// Counted although the ledger filed it as Sandbox.
    public var recoveredFromSandbox: Money?
    /// Counted with no price anywhere.
    public var unpriced = false
    /// Extra ledger rows of the transaction, not counted.
    public var duplicateRowsIgnored = 0

    public init(
        excludedAsSandbox: Money? = nil, recoveredFromSandbox: Money? = nil, unpriced: Bool = false,
        duplicateRowsIgnored: Int = 0
    ) {
        self.excludedAsSandbox = excludedAsSandbox
        self.recoveredFromSandbox = recoveredFromSandbox
        self.unpriced = unpriced
        self.duplicateRowsIgnored = duplicateRowsIgnored
    }
}

/// The counts the revenue report shows beside its lines, over every transaction.
public struct RevenueCounters: Sendable, Hashable {
    /// Per currency, milliunits.
    public var recoveredFromSandbox: [String: Int64] = [:]
    /// Per currency, milliunits.
    public var excludedAsSandbox: [String: Int64] = [:]
    public var unpricedTransactions = 0
    public var duplicateRowsIgnored = 0
    /// How many transactions make up each currency's sum above: a currency no transaction adds to any more is gone,
    /// as it would be had none ever been added.
    public var recoveredTransactions: [String: Int] = [:]
    public var excludedTransactions: [String: Int] = [:]

    public init(
        recoveredFromSandbox: [String: Int64] = [:], excludedAsSandbox: [String: Int64] = [:],
        unpricedTransactions: Int = 0, duplicateRowsIgnored: Int = 0
    ) {
        self.recoveredFromSandbox = recoveredFromSandbox
        self.excludedAsSandbox = excludedAsSandbox
        self.unpricedTransactions = unpricedTransactions
        self.duplicateRowsIgnored = duplicateRowsIgnored
    }

    /// Adds (`sign` 1) or takes back (`sign` -1) one transaction's counts.
    public mutating func add(_ counters: TransactionCounters, sign: Int64 = 1) {
        if let money = counters.excludedAsSandbox {
            Self.add(money, sign: sign, to: &excludedAsSandbox, counts: &excludedTransactions)
        }
        if let money = counters.recoveredFromSandbox {
            Self.add(money, sign: sign, to: &recoveredFromSandbox, counts: &recoveredTransactions)
        }
        if counters.unpriced { unpricedTransactions += Int(sign) }
        duplicateRowsIgnored += Int(sign) * counters.duplicateRowsIgnored
    }

    /// Adds another set of transactions' counts.
    public mutating func add(_ other: RevenueCounters) {
        for (currency, sum) in other.excludedAsSandbox {
            excludedAsSandbox[currency] = (excludedAsSandbox[currency] ?? 0) + sum
            excludedTransactions[currency] =
                (excludedTransactions[currency] ?? 0) + (other.excludedTransactions[currency] ?? 0)
        }
        for (currency, sum) in other.recoveredFromSandbox {
            recoveredFromSandbox[currency] = (recoveredFromSandbox[currency] ?? 0) + sum
            recoveredTransactions[currency] =
                (recoveredTransactions[currency] ?? 0) + (other.recoveredTransactions[currency] ?? 0)
        }
        unpricedTransactions += other.unpricedTransactions
        duplicateRowsIgnored += other.duplicateRowsIgnored
    }

    private static func add(
        _ money: Money, sign: Int64, to sums: inout [String: Int64], counts: inout [String: Int]
    ) {
        let count = (counts[money.currency] ?? 0) + Int(sign)
        if count <= 0 {
            sums[money.currency] = nil
            counts[money.currency] = nil
        } else {
            sums[money.currency] = (sums[money.currency] ?? 0) + sign * money.milliunits
            counts[money.currency] = count
        }
    }
}
