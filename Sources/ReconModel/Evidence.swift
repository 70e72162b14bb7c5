/// Where a piece of evidence about a purchase came from.
public enum EvidenceSource: String, Sendable, Hashable, CaseIterable {
    /// Decoded from the uploaded receipt on this machine, without the network.
    case offline
    /// Apple's `verifyReceipt` answer.
    case verifyReceipt
    /// The App Store Server API (Get Transaction Info, history, order lookup, refund history).
    case serverAPI
    /// An App Store Server Notification V2 (imported or swept from Get Notification History):
    /// Apple's signed word, verified like a Server API answer.
    case notification
}

/// What an offline signature check concluded.
public enum SignatureStatus: String, Sendable, Hashable, CaseIterable {
    /// Signature valid and chain verified to a trusted root.
    case verified
    /// The format carries no signature we can check offline (or checking was not attempted).
    case notChecked = "not-checked"
    /// The signature does not match the signed bytes, or the algorithm is not allowed.
    case invalid
    /// The certificate chain does not reach a trusted root, or breaks Apple's policy.
    case untrusted
}

/// One purchase as a piece of evidence describes it: an `in_app` entry of an app receipt, the
/// `purchase-info` of an iOS 6 receipt, a JWS transaction payload, or a verifyReceipt entry.
///
/// Every field but the transaction id is optional: sources differ in what they say.
public struct EvidenceEntry: Sendable, Hashable {
    public var transactionID: String
    public var originalTransactionID: String?
    public var productID: String?
    public var quantity: Int?
    /// Epoch milliseconds.
    public var purchaseDate: Int64?
    public var originalPurchaseDate: Int64?
    public var expiresDate: Int64?
    /// `cancellation_date` (receipts) or `revocationDate` (JWS): Apple refunded or revoked it.
    public var cancellationDate: Int64?
    /// `cancellation_reason` or `revocationReason`, raw.
    public var cancellationReason: String?
    /// JWS `revocationType`, raw (`REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`).
    public var revocationType: String?
    /// JWS `revocationPercentage` in thousandths of a percent (50 000 = 50 %).
    public var revocationPercentage: Int?
    public var webOrderLineItemID: String?
    /// JWS `price` (milliunits) with `currency`.
    public var price: Money?
    /// JWS `storefront` (ISO 3166-1 alpha-3).
    public var storefront: String?
    /// JWS `type`, raw (`Consumable`, `Non-Consumable`, `Auto-Renewable Subscription`, ...).
    public var productType: String?
    /// Per-entry environment, when the entry states one (JWS payloads do).
    public var environment: StoreEnvironment?
    /// Per-entry bundle id, when the entry states one (JWS `bundleId`, iOS 6 `bid`).
    public var bundleID: String?
    public var appAccountToken: String?
    public var inAppOwnershipType: String?
    /// JWS `signedDate` (epoch ms): when Apple signed this statement.
    ///
    /// The latest signed statement about a transaction is Apple's current word on it (refunds, reversals).
    public var signedDate: Int64?
    /// JWS `isUpgraded`: the customer upgraded this subscription to another one (Apple sends it
    /// only when true). Apple: https://developer.apple.com/documentation/appstoreserverapi/isupgraded
    public var isUpgraded: Bool?
    /// verifyReceipt `is_trial_period` / app receipt field 1713: the subscription is in its free trial.
    ///
    /// Apple: https://developer.apple.com/documentation/appstorereceipts/is_trial_period
    public var isTrialPeriod: Bool?
    /// verifyReceipt `is_in_intro_offer_period` / app receipt field 1719: the subscription is in an introductory
    /// price period.
    ///
    /// Apple: https://developer.apple.com/documentation/appstorereceipts/is_in_intro_offer_period
    public var isInIntroOfferPeriod: Bool?
    /// JWS `offerType`, raw: `1` introductory, `2` promotional, `3` offer code, `4` win-back.
    ///
    /// Apple: https://developer.apple.com/documentation/appstoreserverapi/offertype
    public var offerType: Int?
    /// JWS `offerDiscountType`, raw: `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`.
    public var offerDiscountType: String?
    /// When the receipt this entry was read from was made (epoch ms): app receipt field 12, or verifyReceipt's
    /// `receipt.receipt_creation_date_ms` for the receipt Apple was given.
    ///
    /// A receipt speaks as of this date, however late it is uploaded or verified.
    public var receiptCreationDate: Int64?
    /// JWS `appTransactionId`: one per Apple Account and app (App Store Server API 1.15).
    ///
    /// Apple: https://developer.apple.com/documentation/appstoreserverapi/apptransactionid
    public var appTransactionID: String? = nil
    /// JWS `billingPlanType` and `commitmentInfo`: the 12-month commitment a monthly charge belongs to.
    public var commitment: CommitmentTerms? = nil

    public init(
        transactionID: String, originalTransactionID: String? = nil, productID: String? = nil,
        quantity: Int? = nil, purchaseDate: Int64? = nil, originalPurchaseDate: Int64? = nil,
        expiresDate: Int64? = nil, cancellationDate: Int64? = nil, cancellationReason: String? = nil,
        revocationType: String? = nil, revocationPercentage: Int? = nil,
        webOrderLineItemID: String? = nil, price: Money? = nil, storefront: String? = nil,
        productType: String? = nil, environment: StoreEnvironment? = nil, bundleID: String? = nil,
        appAccountToken: String? = nil, inAppOwnershipType: String? = nil, signedDate: Int64? = nil,
        isUpgraded: Bool? = nil, isTrialPeriod: Bool? = nil, isInIntroOfferPeriod: Bool? = nil,
        offerType: Int? = nil, offerDiscountType: String? = nil, receiptCreationDate: Int64? = nil
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.quantity = quantity
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.cancellationDate = cancellationDate
        self.cancellationReason = cancellationReason
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
        self.webOrderLineItemID = webOrderLineItemID
        self.price = price
        self.storefront = storefront
        self.productType = productType
        self.environment = environment
        self.bundleID = bundleID
        self.appAccountToken = appAccountToken
        self.inAppOwnershipType = inAppOwnershipType
        self.signedDate = signedDate
        self.isUpgraded = isUpgraded
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.offerType = offerType
        self.offerDiscountType = offerDiscountType
        self.receiptCreationDate = receiptCreationDate
    }
}

/// What one receipt says, decoded offline: its header facts and every purchase in it.
public struct ReceiptEvidence: Sendable, Hashable {
    public var format: ReceiptFormat
    /// The environment the receipt states: iOS 6 `environment`, the app receipt's type (`ProductionSandbox` is
    /// Sandbox), or the JWS `environment`.
    ///
    /// Nil when it does not say.
    public var environment: StoreEnvironment?
    /// The app receipt's receipt type, raw (`Production`, `ProductionSandbox`, `Xcode`).
    public var receiptType: String?
    public var bundleID: String?
    public var appVersion: String?
    public var originalAppVersion: String?
    /// Epoch milliseconds: app receipt creation date, or JWS `signedDate`.
    public var creationDate: Int64?
    public var signature: SignatureStatus
    /// Why the signature is not `verified`, in one line.
    public var signatureDetail: String?
    public var entries: [EvidenceEntry]

    public init(
        format: ReceiptFormat, environment: StoreEnvironment? = nil, receiptType: String? = nil,
        bundleID: String? = nil, appVersion: String? = nil, originalAppVersion: String? = nil,
        creationDate: Int64? = nil, signature: SignatureStatus, signatureDetail: String? = nil,
        entries: [EvidenceEntry]
    ) {
        self.format = format
        self.environment = environment
        self.receiptType = receiptType
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.originalAppVersion = originalAppVersion
        self.creationDate = creationDate
        self.signature = signature
        self.signatureDetail = signatureDetail
        self.entries = entries
    }
}
