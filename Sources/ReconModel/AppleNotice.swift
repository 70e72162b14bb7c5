/// A kept notification as Apple's requests and alarms read it (CONTRACT §7): a consumption request, an unreported
/// external purchase token, a rescinded consent, and the refund decisions that close a consumption request.
public struct AppleNotice: Sendable, Hashable {
    /// `notificationUUID`.
    public var uuid: String
    /// `notificationType`, raw.
    public var type: String
    /// `subtype`, raw.
    public var subtype: String?
    /// When Apple signed it (epoch ms).
    public var signedDate: Int64
    public var environment: StoreEnvironment?
    public var transactionID: String?
    public var originalTransactionID: String?
    public var productID: String?
    /// `externalPurchaseToken.externalPurchaseId`.
    public var externalPurchaseID: String?
    /// The `appTransactionId` the notification states (app data, transaction or renewal info).
    public var appTransactionID: String?
    /// `data.consumptionRequestReason`, raw.
    public var consumptionRequestReason: String?

    public init(
        uuid: String, type: String, subtype: String?, signedDate: Int64, environment: StoreEnvironment?,
        transactionID: String?, originalTransactionID: String?, productID: String?, externalPurchaseID: String?,
        appTransactionID: String?, consumptionRequestReason: String?
    ) {
        self.uuid = uuid
        self.type = type
        self.subtype = subtype
        self.signedDate = signedDate
        self.environment = environment
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.externalPurchaseID = externalPurchaseID
        self.appTransactionID = appTransactionID
        self.consumptionRequestReason = consumptionRequestReason
    }

    /// The notification types Apple's requests and alarms are read from.
    public static let types = [
        "CONSUMPTION_REQUEST", "EXTERNAL_PURCHASE_TOKEN", "RESCIND_CONSENT", "REFUND", "REFUND_DECLINED", "EXPIRED",
    ]
}

/// A customer's consent to share consumption information with Apple (CONTRACT §1.10).
public struct Consent: Sendable, Hashable {
    public var userID: String
    /// Epoch ms.
    public var consentedAt: Int64
    public var withdrawnAt: Int64?

    public init(userID: String, consentedAt: Int64, withdrawnAt: Int64?) {
        self.userID = userID
        self.consentedAt = consentedAt
        self.withdrawnAt = withdrawnAt
    }

    /// Whether the consent held at `time`.
    public func holds(at time: Int64) -> Bool {
        consentedAt <= time && (withdrawnAt.map { $0 > time } ?? true)
    }
}

/// What was sent for one consumption request, and Apple's answer.
public struct ConsumptionAnswer: Sendable, Hashable {
    public var notificationUUID: String
    public var transactionID: String
    /// The JSON body sent.
    public var body: String
    /// When it was sent (the as-of of the command that sent it).
    public var sentAt: Int64
    /// When Apple accepted it (HTTP 202); nil while not accepted.
    public var answeredAt: Int64?
    public var httpStatus: Int?
    /// Why it failed, one line; nil when accepted or still in flight.
    public var failure: String?

    public init(
        notificationUUID: String, transactionID: String, body: String, sentAt: Int64, answeredAt: Int64?,
        httpStatus: Int?, failure: String?
    ) {
        self.notificationUUID = notificationUUID
        self.transactionID = transactionID
        self.body = body
        self.sentAt = sentAt
        self.answeredAt = answeredAt
        self.httpStatus = httpStatus
        self.failure = failure
    }
}

/// What the ledger says of one transaction, for an answer to Apple.
public struct LedgerFacts: Sendable, Hashable {
    /// Every user the ledger credited it to, sorted.
    public var userIDs: [String]
    public var productID: String?
    /// The earliest delivery the ledger recorded (epoch ms).
    public var deliveredAt: Int64?
    /// The ledger's price × quantity.
    public var amount: Money?
    /// Apple's `price` where evidence states it.
    public var applePrice: Money?

    public init(userIDs: [String], productID: String?, deliveredAt: Int64?, amount: Money?, applePrice: Money?) {
        self.userIDs = userIDs
        self.productID = productID
        self.deliveredAt = deliveredAt
        self.amount = amount
        self.applePrice = applePrice
    }
}
