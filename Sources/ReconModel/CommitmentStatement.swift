/// One statement Apple signed about a monthly charge of a 12-month commitment: the charge with its
/// `commitmentInfo`, and its refund when Apple refunded it.
public struct CommitmentStatement: Sendable, Hashable {
    public var originalTransactionID: String
    public var transactionID: String
    public var productID: String?
    public var environment: StoreEnvironment?
    public var terms: CommitmentTerms
    /// Epoch ms.
    public var purchaseDate: Int64?
    public var expiresDate: Int64?
    /// The charge (Apple's `price`, milliunits) and its currency.
    public var price: Money?
    public var revocationDate: Int64?
    public var revocationType: String?
    /// Thousandths of a percent (50 000 = 50 %).
    public var revocationPercentage: Int?
    public var signedDate: Int64?

    public init(
        originalTransactionID: String, transactionID: String, productID: String?, environment: StoreEnvironment?,
        terms: CommitmentTerms, purchaseDate: Int64?, expiresDate: Int64?, price: Money?, revocationDate: Int64?,
        revocationType: String?, revocationPercentage: Int?, signedDate: Int64?
    ) {
        self.originalTransactionID = originalTransactionID
        self.transactionID = transactionID
        self.productID = productID
        self.environment = environment
        self.terms = terms
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.price = price
        self.revocationDate = revocationDate
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
        self.signedDate = signedDate
    }
}

/// A renewal info's word on a commitment: whether the subscription renews after the commitment's last period.
public struct RenewalCommitment: Sendable, Hashable {
    public var originalTransactionID: String
    public var environment: StoreEnvironment
    /// When Apple signed the renewal info (epoch ms).
    public var signedDate: Int64
    /// Raw `autoRenewStatus`.
    public var autoRenewStatus: Int?
    /// Raw `commitmentInfo.commitmentAutoRenewStatus`: `1` renews after the commitment, `0` does not.
    public var commitmentAutoRenewStatus: Int?
    public var isInBillingRetryPeriod: Bool?

    public init(
        originalTransactionID: String, environment: StoreEnvironment, signedDate: Int64, autoRenewStatus: Int?,
        commitmentAutoRenewStatus: Int?, isInBillingRetryPeriod: Bool?
    ) {
        self.originalTransactionID = originalTransactionID
        self.environment = environment
        self.signedDate = signedDate
        self.autoRenewStatus = autoRenewStatus
        self.commitmentAutoRenewStatus = commitmentAutoRenewStatus
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
    }
}
