/// One cell of revenue recognition's monthly sums (CONTRACT §5.1): a calendar month, the month the sales were billed
/// in, a product and a currency.
///
/// Months are `year × 12 + month − 1` in the report's time zone.
public struct RecognitionMonth: Sendable, Hashable, Comparable {
    public var month: Int
    public var billedMonth: Int
    public var productID: String
    public var currency: String

    public init(month: Int, billedMonth: Int, productID: String, currency: String) {
        self.month = month
        self.billedMonth = billedMonth
        self.productID = productID
        self.currency = currency
    }

    public static func < (a: RecognitionMonth, b: RecognitionMonth) -> Bool {
        (a.month, a.billedMonth, a.productID, a.currency) < (b.month, b.billedMonth, b.productID, b.currency)
    }
}

/// What the sales of one ``RecognitionMonth`` billed, recognized, released and reversed in it, in milliunits, and how
/// many of them were billed in it (a month with sales of no amount still has a line in the waterfall).
public struct RecognitionMonthSums: Sendable, Hashable {
    public var sales: Int64 = 0
    public var billings: Int64 = 0
    public var recognized: Int64 = 0
    public var released: Int64 = 0
    public var reversed: Int64 = 0

    public init(sales: Int64 = 0, billings: Int64 = 0, recognized: Int64 = 0, released: Int64 = 0, reversed: Int64 = 0)
    {
        self.sales = sales
        self.billings = billings
        self.recognized = recognized
        self.released = released
        self.reversed = reversed
    }

    /// Adds `other` (`sign` −1: takes it away), capped at the money type's bounds.
    public mutating func add(_ other: RecognitionMonthSums, sign: Int64 = 1) {
        func plus(_ a: Int64, _ b: Int64) -> Int64 { sign < 0 ? Money.difference(a, b) : Money.sum(a, b) }
        sales += sign < 0 ? -other.sales : other.sales
        billings = plus(billings, other.billings)
        recognized = plus(recognized, other.recognized)
        released = plus(released, other.released)
        reversed = plus(reversed, other.reversed)
    }

    /// Nothing in it: no sale billed, no amount moved.
    public var isEmpty: Bool { self == RecognitionMonthSums() }
}
