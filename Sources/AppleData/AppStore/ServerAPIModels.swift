import Foundation
import ReconModel

/// Get Transaction Info's answer: one signed transaction.
public struct TransactionInfoAnswer: Sendable, Hashable {
    /// `signedTransactionInfo`: a JWS to verify with the chain verifier.
    public var signedTransactionInfo: String
    /// The environment that knew the transaction.
    public var environment: StoreEnvironment
    /// HTTP attempts made, across both environments.
    public var attempts: Int

    /// Creates an answer value.
    public init(signedTransactionInfo: String, environment: StoreEnvironment, attempts: Int) {
        self.signedTransactionInfo = signedTransactionInfo
        self.environment = environment
        self.attempts = attempts
    }
}

/// Get Transaction History's (or Get Refund History's) answer: every page, concatenated.
public struct TransactionHistoryAnswer: Sendable, Hashable {
    /// Every `signedTransactions` entry of every page, in Apple's order.
    public var signedTransactions: [String]
    /// The `revision` of the last page: pass it next time to get only newer transactions.
    public var revision: String?
    /// Whether Apple had more pages when paging stopped (true only when `maxPages` was reached).
    public var hasMore: Bool
    /// Pages fetched.
    public var pages: Int
    /// The answer's `bundleId` (history only).
    public var bundleID: String?
    /// The answer's `appAppleId` (history only).
    public var appAppleID: Int64?
    /// The answer's `environment` field when present, else the environment asked.
    public var environment: StoreEnvironment
    /// HTTP attempts made, across pages and environments.
    public var attempts: Int

    /// Creates an answer value.
    public init(
        signedTransactions: [String], revision: String?, hasMore: Bool, pages: Int, bundleID: String? = nil,
        appAppleID: Int64? = nil, environment: StoreEnvironment, attempts: Int
    ) {
        self.signedTransactions = signedTransactions
        self.revision = revision
        self.hasMore = hasMore
        self.pages = pages
        self.bundleID = bundleID
        self.appAppleID = appAppleID
        self.environment = environment
        self.attempts = attempts
    }
}

/// Look Up Order ID's answer.
public struct OrderLookupAnswer: Sendable, Hashable {
    /// Apple's `status`: 0 valid order, 1 invalid order id.
    public var status: Int
    /// The order's transactions, signed.
    public var signedTransactions: [String]
    /// The environment asked.
    public var environment: StoreEnvironment
    /// HTTP attempts made.
    public var attempts: Int

    /// Whether Apple knows the order (`status` 0).
    public var isValid: Bool { status == OrderLookupStatus.valid }

    /// Creates an answer value.
    public init(status: Int, signedTransactions: [String], environment: StoreEnvironment, attempts: Int) {
        self.status = status
        self.signedTransactions = signedTransactions
        self.environment = environment
        self.attempts = attempts
    }
}

/// Apple's `OrderLookupStatus` (https://developer.apple.com/documentation/appstoreserverapi/orderlookupstatus).
public enum OrderLookupStatus {
    /// 0: the order id is valid and Apple returns its transactions.
    public static let valid = 0
    /// 1: the order id is invalid (not this app's, or unknown).
    public static let invalid = 1
}
