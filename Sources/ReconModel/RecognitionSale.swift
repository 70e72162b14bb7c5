/// One counted transaction as revenue recognition sees it (CONTRACT §5.1): what was paid, the service period it
/// buys, and what Apple later said about refunds.
public struct RecognitionSale: Sendable, Hashable {
    /// Where the service period comes from (CONTRACT §5 `revenue_schedule.csv` `period_source`).
    public enum PeriodSource: String, Sendable, Hashable {
        /// Apple's `expiresDate` for this transaction (signed transaction, Server API, notification) or
        /// verifyReceipt's `expires_date_ms`.
        case apple
        /// The purchase date plus the catalog's `duration`.
        case catalog
        /// A consumable or non-consumable: delivered at the purchase instant.
        case pointInTime = "point-in-time"
        /// A subscription whose period nothing states: recognized at purchase.
        case none
    }

    /// What Apple gave back, and whether it later took that back.
    public struct Refund: Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            /// A refund of the whole amount (`REFUND_FULL`, a cancellation without a share).
            case full
            /// A prorated refund (`REFUND_PRORATED`): Apple's `revocationPercentage`, in thousandths of a percent
            /// (https://developer.apple.com/documentation/appstoreserverapi/revocationpercentage).
            case prorated(thousandthsOfPercent: Int)
            /// An upgrade (JWS `isUpgraded`) whose prorated refund Apple does not quantify
            /// (https://developer.apple.com/documentation/appstoreserverapi/isupgraded).
            case upgrade
        }

        /// When Apple refunded: its `revocationDate`
        /// (https://developer.apple.com/documentation/appstoreserverapi/revocationdate).
        public var at: Int64
        public var kind: Kind
        /// When Apple reversed the refund (a `REFUND_REVERSED` notification); nil: it stands.
        public var reversedAt: Int64?

        public init(at: Int64, kind: Kind, reversedAt: Int64? = nil) {
            self.at = at
            self.kind = kind
            self.reversedAt = reversedAt
        }
    }

    public var transactionID: String
    public var originalTransactionID: String
    public var userID: String
    public var productID: String
    /// The amount recognized over the period (customer price or proceeds, per `--recognition-basis`).
    public var amount: Money
    /// The purchase instant (epoch ms): the period's start, and when the sale is billed.
    public var start: Int64
    /// The period's end (exclusive); nil or not after `start`: recognized at `start`.
    public var end: Int64?
    public var periodSource: PeriodSource
    /// Apple's refunds, oldest first; only the last may stand unreversed.
    public var refunds: [Refund]

    public init(
        transactionID: String, originalTransactionID: String, userID: String, productID: String, amount: Money,
        start: Int64, end: Int64?, periodSource: PeriodSource, refunds: [Refund] = []
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.userID = userID
        self.productID = productID
        self.amount = amount
        self.start = start
        self.end = end
        self.periodSource = periodSource
        // Most sales have no refund, a few one: nothing to sort.
        self.refunds = refunds.count < 2 ? refunds : refunds.sorted { $0.at < $1.at }
    }

    /// The last instant at which anything about the sale changes: its end, a refund or a reversal.
    public var lastChange: Int64 {
        var last = max(start, end ?? start)
        for refund in refunds {
            last = max(last, refund.at, refund.reversedAt ?? refund.at)
        }
        return last
    }
}
