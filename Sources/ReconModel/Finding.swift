/// How urgently a finding needs a person.
public enum Severity: String, Sendable, Hashable, CaseIterable, Comparable {
    case critical, high, medium, low

    /// 0 is the most severe; used for sorting and `--fail-on`.
    public var rank: Int {
        switch self {
        case .critical: return 0
        case .high: return 1
        case .medium: return 2
        case .low: return 3
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// The stable finding codes of CONTRACT §4.
public enum FindingCode: String, Sendable, Hashable, CaseIterable, Comparable {
    case duplicateRecord = "DUPLICATE_RECORD"
    case sharedTransaction = "SHARED_TRANSACTION"
    case restoreAsPurchase = "RESTORE_AS_PURCHASE"
    case undelivered = "UNDELIVERED"
    case deliveredUnverified = "DELIVERED_UNVERIFIED"
    case unfinished = "UNFINISHED"
    case stuckPending = "STUCK_PENDING"
    case sandboxInProduction = "SANDBOX_IN_PRODUCTION"
    case productionAsSandbox = "PRODUCTION_AS_SANDBOX"
    case environmentClaimMismatch = "ENVIRONMENT_CLAIM_MISMATCH"
    case invalidReceipt = "INVALID_RECEIPT"
    case bundleMismatch = "BUNDLE_MISMATCH"
    case productMismatch = "PRODUCT_MISMATCH"
    case refundedDelivered = "REFUNDED_DELIVERED"
    case missingRecord = "MISSING_RECORD"
    case unknownProduct = "UNKNOWN_PRODUCT"
    case priceMismatch = "PRICE_MISMATCH"
    case salesReportMismatch = "SALES_REPORT_MISMATCH"
    case financialReportMismatch = "FINANCIAL_REPORT_MISMATCH"
    case paymentMismatch = "PAYMENT_MISMATCH"
    case paidNotEntitled = "PAID_NOT_ENTITLED"
    case entitledNotPaid = "ENTITLED_NOT_PAID"
    case entitlementExpiryMismatch = "ENTITLEMENT_EXPIRY_MISMATCH"
    case consumptionUnanswered = "CONSUMPTION_UNANSWERED"
    case externalPurchaseUnreported = "EXTERNAL_PURCHASE_UNREPORTED"
    case consentRescinded = "CONSENT_RESCINDED"

    /// The severity CONTRACT §4 assigns to the code.
    public var severity: Severity {
        switch self {
        case .sharedTransaction, .undelivered, .productionAsSandbox, .bundleMismatch, .missingRecord, .paidNotEntitled,
            .externalPurchaseUnreported:
            return .critical
        case .duplicateRecord, .deliveredUnverified, .sandboxInProduction, .invalidReceipt,
            .productMismatch, .refundedDelivered, .salesReportMismatch, .financialReportMismatch, .paymentMismatch,
            .entitledNotPaid, .consumptionUnanswered:
            return .high
        case .restoreAsPurchase, .unfinished, .stuckPending, .unknownProduct, .consentRescinded:
            return .medium
        case .environmentClaimMismatch, .priceMismatch, .entitlementExpiryMismatch:
            return .low
        }
    }

    /// The severity of a finding of this code in `environment`: an unreported Sandbox token is `low` (CONTRACT §4),
    /// every other code has one severity.
    public func severity(in environment: StoreEnvironment?) -> Severity {
        if self == .externalPurchaseUnreported, let environment, !environment.isProduction { return .low }
        return severity
    }

    /// The codes whose severity depends on the environment (``severity(in:)``).
    public static let environmentSeverities: [(code: FindingCode, environment: String, severity: Severity)] = [
        (.externalPurchaseUnreported, StoreEnvironment.sandbox.rawValue, .low)
    ]

    public static func < (lhs: FindingCode, rhs: FindingCode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One discrepancy, with everything a finance or support person needs to act on it.
public struct Finding: Sendable, Hashable {
    public var code: FindingCode
    public var severity: Severity { code.severity(in: environment) }
    public var transactionID: String
    public var originalTransactionID: String?
    /// Every user involved, sorted, without duplicates.
    public var userIDs: [String]
    public var productID: String?
    public var environment: StoreEnvironment?
    /// The amount at stake, in its own currency; nil when unknown.
    public var amount: Money?
    /// One line a person understands without knowing the code.
    public var detail: String
    /// The ledger rows involved (for the support lookup).
    public var recordIDs: [String]
    /// The receipt involved, if any.
    public var receiptID: String?
    /// What the finding is about when no single transaction is (a sales report's day, product,
    /// storefront and currency); part of its identity.
    public var subject: String?
    /// The detail's words before and after an age counted from a moment to the as-of ("… 26 h after purchase").
    ///
    /// Set when the detail states one: what lets a kept finding be worded for a later as-of without judging it
    /// again. Not part of the finding's identity or equality (the detail is).
    public var aged: AgedText?

    public init(
        code: FindingCode, transactionID: String, originalTransactionID: String? = nil,
        userIDs: [String], productID: String? = nil, environment: StoreEnvironment? = nil,
        amount: Money? = nil, detail: String, recordIDs: [String] = [], receiptID: String? = nil,
        subject: String? = nil
    ) {
        self.code = code
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.userIDs = Array(Set(userIDs)).sorted()
        self.productID = productID
        self.environment = environment
        self.amount = amount
        self.detail = detail
        self.recordIDs = Array(Set(recordIDs)).sorted()
        self.receiptID = receiptID
        self.subject = subject
    }

    public static func == (lhs: Finding, rhs: Finding) -> Bool {
        (lhs.code, lhs.transactionID, lhs.originalTransactionID, lhs.userIDs, lhs.productID)
            == (rhs.code, rhs.transactionID, rhs.originalTransactionID, rhs.userIDs, rhs.productID)
            && (lhs.environment, lhs.amount, lhs.detail, lhs.recordIDs, lhs.receiptID, lhs.subject)
                == (rhs.environment, rhs.amount, rhs.detail, rhs.recordIDs, rhs.receiptID, rhs.subject)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fingerprint)
        hasher.combine(detail)
    }

    /// Identity across runs: the same problem found again is the same finding.
    public var fingerprint: String {
        let base = [code.rawValue, transactionID, receiptID ?? "", recordIDs.joined(separator: ",")]
        return (base + (subject.map { [$0] } ?? [])).joined(separator: "|")
    }

    /// The stable report order: severity, code, transaction id, then the rest.
    public static func reportOrder(_ lhs: Finding, _ rhs: Finding) -> Bool {
        if lhs.severity != rhs.severity { return lhs.severity < rhs.severity }
        if lhs.code != rhs.code { return lhs.code < rhs.code }
        if lhs.transactionID != rhs.transactionID { return lhs.transactionID < rhs.transactionID }
        return lhs.fingerprint < rhs.fingerprint
    }
}

/// A finding's detail with its age left out: `before`, the age from `since` to the as-of
/// (``FindingText/duration(_:)``), then `after`.
public struct AgedText: Sendable, Hashable {
    public var before: String
    public var since: Int64
    public var after: String

    package init(before: String, since: Int64, after: String) {
        self.before = before
        self.since = since
        self.after = after
    }
}
