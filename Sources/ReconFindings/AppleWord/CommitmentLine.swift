import ReconModel

/// One 12-month commitment of a monthly billing plan at the as-of (CONTRACT §7, `commitments.csv`).
public struct CommitmentLine: Sendable, Hashable {
    /// Where the commitment stands.
    public enum Status: String, Sendable, Hashable {
        /// Still billing: what is left is contracted, not yet billed.
        case active
        /// Ended early: a refund of the current period, `EXPIRED`, or billing retry past 90 days.
        case ended
        /// Every period billed and the commitment's end reached.
        case completed
    }

    public var originalTransactionID: String
    /// The ledger's users of the subscription, sorted.
    public var userIDs: [String]
    public var productID: String?
    public var currency: String
    /// The total price across the commitment (Apple's `commitmentPrice`), milliunits.
    public var commitmentPrice: Int64
    public var periodsTotal: Int
    /// The monthly charges Apple made by the as-of.
    public var periodsBilled: Int
    /// Their prices, milliunits.
    public var billed: Int64
    /// What Apple refunded of them, milliunits.
    public var refunded: Int64
    /// `commitmentPrice − billed` while active; 0 once ended or completed.
    public var unbilled: Int64
    /// When the commitment ends (epoch ms).
    public var commitmentExpires: Int64?
    public var status: Status
    /// The renewal info's `commitmentAutoRenewStatus`: true renews after the last period, false does not (not a
    /// cancellation now); nil when no renewal info said.
    public var renewsAfter: Bool?
    /// The period the latest charge paid (1-based), for the support lookup.
    public var currentPeriod: Int?
}
