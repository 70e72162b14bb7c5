import ReconModel

/// What renews after a commitment's last period, named as Apple's `RenewalCommitmentInfo`.
///
/// `commitmentAutoRenewStatus` `0` means the subscription will not renew once the commitment's last period ends; it is
/// not a cancellation of the periods still to come (the customer committed to them).
/// See https://developer.apple.com/documentation/appstoreserverapi/renewalcommitmentinfo
public struct RenewalCommitmentInfo: Codable, Hashable, Sendable {
    /// The product that renews after the commitment.
    public var commitmentAutoRenewProductId: String?
    /// Raw: `1` renews after the commitment, `0` does not.
    public var commitmentAutoRenewStatus: Int32?
    /// Raw billing plan of the renewal (`MONTHLY`).
    public var commitmentRenewalBillingPlanType: String?
    /// When the commitment renews (epoch ms).
    public var commitmentRenewalDate: Int64?
    /// The renewal's price in milliunits.
    public var commitmentRenewalPrice: Int64?

    /// A renewal commitment with the given members.
    public init(
        commitmentAutoRenewProductId: String? = nil, commitmentAutoRenewStatus: Int32? = nil,
        commitmentRenewalBillingPlanType: String? = nil, commitmentRenewalDate: Int64? = nil,
        commitmentRenewalPrice: Int64? = nil
    ) {
        self.commitmentAutoRenewProductId = commitmentAutoRenewProductId
        self.commitmentAutoRenewStatus = commitmentAutoRenewStatus
        self.commitmentRenewalBillingPlanType = commitmentRenewalBillingPlanType
        self.commitmentRenewalDate = commitmentRenewalDate
        self.commitmentRenewalPrice = commitmentRenewalPrice
    }

    /// Decodes leniently.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        commitmentAutoRenewProductId = try c.lenientString(.commitmentAutoRenewProductId)
        commitmentAutoRenewStatus = try c.lenientInt32(.commitmentAutoRenewStatus)
        commitmentRenewalBillingPlanType = try c.lenientString(.commitmentRenewalBillingPlanType)
        commitmentRenewalDate = try c.lenientInt64(.commitmentRenewalDate)
        commitmentRenewalPrice = try c.lenientInt64(.commitmentRenewalPrice)
    }
}

extension JWSRenewalInfoDecodedPayload {
    /// The renewal info's word on a 12-month commitment; nil without `commitmentInfo`, an original transaction id or a
    /// signed date.
    public var renewalCommitment: RenewalCommitment? {
        guard let info = commitmentInfo, let original = originalTransactionId, let signedDate else { return nil }
        return RenewalCommitment(
            originalTransactionID: original, environment: storeEnvironment ?? .production, signedDate: signedDate,
            autoRenewStatus: autoRenewStatus.map { Int($0) },
            commitmentAutoRenewStatus: info.commitmentAutoRenewStatus.map { Int($0) },
            isInBillingRetryPeriod: isInBillingRetryPeriod)
    }
}
