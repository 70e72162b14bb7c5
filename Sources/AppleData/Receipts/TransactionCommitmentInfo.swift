/// The commitment a transaction of a monthly billing plan belongs to, named as Apple's `TransactionCommitmentInfo`
/// (`billingPlanType` `MONTHLY` with a 12-month commitment, iOS 26.4).
///
/// `commitmentPrice` is the total price across the commitment period, in milliunits of the transaction's currency
/// (StoreKit's `CommitmentInfo`: "the total price across the commitment period"); Apple's example has 12 periods of
/// 9 990 and a commitment price of 119 880.
/// See https://developer.apple.com/documentation/appstoreserverapi/transactioncommitmentinfo
public struct TransactionCommitmentInfo: Codable, Hashable, Sendable {
    /// Which billing period of the commitment this transaction pays (1 to ``totalBillingPeriods``).
    public var billingPeriodNumber: Int32?
    /// When the commitment ends (epoch ms).
    public var commitmentExpiresDate: Int64?
    /// The commitment's total price in milliunits.
    public var commitmentPrice: Int64?
    /// How many billing periods the commitment has (12).
    public var totalBillingPeriods: Int32?

    /// A commitment with the given members.
    public init(
        billingPeriodNumber: Int32? = nil, commitmentExpiresDate: Int64? = nil, commitmentPrice: Int64? = nil,
        totalBillingPeriods: Int32? = nil
    ) {
        self.billingPeriodNumber = billingPeriodNumber
        self.commitmentExpiresDate = commitmentExpiresDate
        self.commitmentPrice = commitmentPrice
        self.totalBillingPeriods = totalBillingPeriods
    }

    /// Decodes leniently.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        billingPeriodNumber = try c.lenientInt32(.billingPeriodNumber)
        commitmentExpiresDate = try c.lenientInt64(.commitmentExpiresDate)
        commitmentPrice = try c.lenientInt64(.commitmentPrice)
        totalBillingPeriods = try c.lenientInt32(.totalBillingPeriods)
    }
}
