/// What one transaction added to one line of the revenue report (a day, product and currency).
///
/// The store keeps the contributions each report showed, so the next report can say which
/// transactions changed a day finance already saw, and why.
public struct RevenueContribution: Sendable, Hashable {
    public struct Key: Sendable, Hashable, Comparable {
        /// `yyyy-MM-dd` in the report's time zone.
        public var date: String
        public var productID: String
        public var currency: String
        public var transactionID: String

        public static func < (a: Key, b: Key) -> Bool {
            (a.date, a.productID, a.currency, a.transactionID) < (b.date, b.productID, b.currency, b.transactionID)
        }

        package init(date: String, productID: String, currency: String, transactionID: String) {
            self.date = date
            self.productID = productID
            self.currency = currency
            self.transactionID = transactionID
        }
    }

    public var key: Key
    /// Milliunits of the currency.
    public var gross: Int64
    public var refunds: Int64
    /// Which evidence reported the refund, in words (not stored: only the current report needs it).
    public var refundSource: String?
    /// Which evidence reported that Apple reversed a refund, in words, when this contribution gives a refund
    /// back (``refunds`` negative); not stored.
    public var reversalSource: String? = nil

    public var net: Int64 { gross - refunds }

    package init(key: Key, gross: Int64, refunds: Int64, refundSource: String? = nil, reversalSource: String? = nil) {
        self.key = key
        self.gross = gross
        self.refunds = refunds
        self.refundSource = refundSource
        self.reversalSource = reversalSource
    }
}

/// One line of the revenue report: a day, product and currency.
package struct RevenueLine: Hashable, Comparable {
    /// `yyyy-MM-dd` in the report's time zone.
    package var date: String
    package var productID: String
    package var currency: String

    package static func < (a: RevenueLine, b: RevenueLine) -> Bool {
        (a.date, a.productID, a.currency) < (b.date, b.productID, b.currency)
    }

    package init(date: String, productID: String, currency: String) {
        self.date = date
        self.productID = productID
        self.currency = currency
    }
}
