import ReconModel

/// One `CONSUMPTION_REQUEST` with the answer the ledger supports (CONTRACT §7, `consumption_requests.csv`).
///
/// Apple asks for consumption information within 12 hours of the notification's `signedDate`; the answer is Send
/// Consumption Information V2 (https://developer.apple.com/documentation/appstoreserverapi/send-consumption-information).
public struct ConsumptionRequestLine: Sendable, Hashable {
    /// Whether the customer consented to share consumption data (CONTRACT §1.10) at the request's time.
    public enum Consented: String, Sendable, Hashable {
        case yes, no
        /// The store holds no consents at all.
        case unknown
    }

    /// How long Apple waits for an answer.
    public static let answerWindowMillis: Int64 = 12 * 3_600_000

    public var notificationUUID: String
    public var transactionID: String
    public var originalTransactionID: String?
    /// The ledger's users of the transaction, sorted.
    public var userIDs: [String]
    public var productID: String?
    public var environment: StoreEnvironment?
    /// `consumptionRequestReason`, raw.
    public var reason: String?
    /// The notification's `signedDate` (epoch ms).
    public var requestedAt: Int64
    public var consented: Consented
    /// Apple's `deliveryStatus`: `DELIVERED`, or `UNDELIVERED_OTHER` when the ledger did not deliver.
    public var deliveryStatus: String
    /// Apple's `consumptionPercentage`: never set (the ledger does not know use; Apple forbids it for
    /// auto-renewables).
    public var consumptionPercentage: Int?
    /// Apple's `sampleContentProvided`, from the catalog's `sample_content`.
    public var sampleContentProvided: Bool
    /// Apple's `refundPreference`: `GRANT_FULL` when undelivered, else none.
    public var refundPreference: String?
    /// When Apple accepted an answer (its 202), by the as-of.
    public var answeredAt: Int64?
    /// An answer left without a reply (sent, the run ended before Apple's answer came back): never sent again.
    public var answerInFlight: Bool
    /// `REFUND` or `REFUND_DECLINED`: Apple's later word, by the as-of.
    public var outcome: String?
    /// The transaction's price: Apple's where evidence states it, else the ledger's.
    public var amount: Money?

    /// Apple's deadline: 12 hours after the request was signed.
    public var deadline: Int64 { requestedAt + Self.answerWindowMillis }

    /// Neither answered nor decided.
    public var isOpen: Bool { answeredAt == nil && outcome == nil && !answerInFlight }

    /// Whether `answer-consumption` sends an answer at `now`: open, before the deadline, the user consented.
    public func isToSend(at now: Int64) -> Bool {
        isOpen && consented == .yes && now < deadline
    }

    /// The V2 body: `customerConsented` (true), `deliveryStatus`, `sampleContentProvided`, and `refundPreference` /
    /// `consumptionPercentage` when set; keys sorted, no spaces.
    ///
    /// Apple: https://developer.apple.com/documentation/appstoreserverapi/consumptionrequest
    public var body: String {
        var members: [(String, String)] = [
            ("customerConsented", "true"), ("deliveryStatus", "\"\(deliveryStatus)\""),
            ("sampleContentProvided", sampleContentProvided ? "true" : "false"),
        ]
        if let refundPreference { members.append(("refundPreference", "\"\(refundPreference)\"")) }
        if let consumptionPercentage { members.append(("consumptionPercentage", String(consumptionPercentage))) }
        return "{" + members.sorted { $0.0 < $1.0 }.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
