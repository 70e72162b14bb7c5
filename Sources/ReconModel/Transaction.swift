/// How far the backend got with verifying a purchase, as recorded in the ledger.
public enum VerificationStatus: String, Sendable, Hashable, CaseIterable {
    case pending, verified, invalid, error
}

/// One row of the backend's purchase ledger (CONTRACT §1.1), parsed and typed.
///
/// Times are epoch milliseconds (UTC); money is exact.
public struct LedgerTransaction: Sendable, Hashable {
    public var recordID: String
    public var userID: String
    public var productID: String
    public var transactionID: String
    public var originalTransactionID: String
    public var purchaseDate: Int64
    public var quantity: Int
    public var environment: StoreEnvironment
    /// Customer price per unit, as the backend recorded it.
    public var price: Money?
    public var storefront: String?
    public var verificationStatus: VerificationStatus
    public var deliveredAt: Int64?
    public var finishedAt: Int64?
    public var receiptID: String?
    /// When this program's own verification settled the row (the ledger still says `pending`): the as-of of the
    /// run that learned it, else the wall clock; nil when ``verificationStatus`` is the backend's.
    public var settledAt: Int64? = nil

    public init(
        recordID: String, userID: String, productID: String, transactionID: String,
        originalTransactionID: String? = nil, purchaseDate: Int64, quantity: Int = 1,
        environment: StoreEnvironment = .production, price: Money? = nil, storefront: String? = nil,
        verificationStatus: VerificationStatus, deliveredAt: Int64? = nil, finishedAt: Int64? = nil,
        receiptID: String? = nil
    ) {
        self.recordID = recordID
        self.userID = userID
        self.productID = productID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID ?? transactionID
        self.purchaseDate = purchaseDate
        self.quantity = quantity
        self.environment = environment
        self.price = price
        self.storefront = storefront
        self.verificationStatus = verificationStatus
        self.deliveredAt = deliveredAt
        self.finishedAt = finishedAt
        self.receiptID = receiptID
    }

    /// The customer price of the whole row (`price × quantity`), when a price was recorded and
    /// the total fits the money type (import rejects rows whose total does not).
    public var lineTotal: Money? {
        price.flatMap { $0.times(quantity) }
    }
}
