/// What a transaction of a monthly billing plan with a 12-month commitment states of its commitment (JWS
/// `billingPlanType` and `commitmentInfo`, iOS 26.4).
///
/// Apple: https://developer.apple.com/documentation/appstoreserverapi/transactioncommitmentinfo
public struct CommitmentTerms: Sendable, Hashable {
    /// Raw `billingPlanType` (`MONTHLY`).
    public var billingPlanType: String?
    /// Which period of the commitment the transaction pays (1-based).
    public var billingPeriodNumber: Int?
    /// How many periods the commitment has.
    public var totalBillingPeriods: Int?
    /// The total price across the commitment, in milliunits of the transaction's currency.
    public var commitmentPrice: Int64?
    /// When the commitment ends (epoch ms).
    public var commitmentExpiresDate: Int64?

    public init(
        billingPlanType: String?, billingPeriodNumber: Int?, totalBillingPeriods: Int?, commitmentPrice: Int64?,
        commitmentExpiresDate: Int64?
    ) {
        self.billingPlanType = billingPlanType
        self.billingPeriodNumber = billingPeriodNumber
        self.totalBillingPeriods = totalBillingPeriods
        self.commitmentPrice = commitmentPrice
        self.commitmentExpiresDate = commitmentExpiresDate
    }
}
