import Foundation

/// What a `verifyReceipt` status means for the receipt.
public enum VerifyReceiptVerdict: String, Sendable, Hashable, CaseIterable {
    /// 0 (and 21006, "valid but the subscription has expired"): Apple vouches for the receipt.
    case valid
    /// 21002, 21003, 21010: the receipt is malformed, not authentic, or its account is gone.
    case invalid
    /// 21007 or 21008 after the other environment was tried too: Apple contradicts itself.
    case wrongEnvironment = "wrong-environment"
    /// 21004 (shared secret mismatch), 21000/21001 (bad request): our setup is wrong, not the receipt.
    case configurationProblem = "configuration-problem"
    /// 21100–21199 with `is-retryable: false`, or a status this build does not know: no verdict.
    case unresolved
}

/// Apple's `verifyReceipt` status codes, by the names of Apple's documentation
/// (https://developer.apple.com/documentation/appstorereceipts/status), and how they are read.
///
/// CONTRACT §3 decides the verdicts: 21002/21003/21010 invalid, 21007/21008 environment evidence.
public enum VerifyReceiptStatus {
    /// 0: the receipt is valid.
    public static let valid = 0
    /// 21000: the request was not an HTTP POST.
    public static let notPost = 21_000
    /// 21001: no longer sent by Apple.
    public static let unusedRequestError = 21_001
    /// 21002: the data in `receipt-data` is malformed (or the service had a temporary issue).
    public static let malformedReceiptData = 21_002
    /// 21003: the receipt could not be authenticated.
    public static let notAuthenticated = 21_003
    /// 21004: the shared secret does not match the one on file for the account.
    public static let sharedSecretMismatch = 21_004
    /// 21005: the receipt server is temporarily unable to provide the receipt.
    public static let serverUnavailable = 21_005
    /// 21006: valid, but the subscription has expired (iOS 6-style receipts only).
    public static let validButSubscriptionExpired = 21_006
    /// 21007: a sandbox receipt sent to production.
    public static let sandboxReceiptAtProduction = 21_007
    /// 21008: a production receipt sent to sandbox.
    public static let productionReceiptAtSandbox = 21_008
    /// 21009: internal data access error.
    public static let internalDataAccessError = 21_009
    /// 21010: the user account cannot be found or has been deleted.
    public static let accountNotFound = 21_010
    /// 21100–21199: internal data access errors.
    public static let internalDataAccessErrors = 21_100...21_199

    /// The statuses that mean "this receipt is not valid" (CONTRACT §3).
    public static let invalidReceipt: Set<Int> = [malformedReceiptData, notAuthenticated, accountNotFound]

    /// The statuses under which an answer may still speak about the purchase: valid, or one of
    /// the two environment redirects.
    public static let usableEvidence: Set<Int> = [valid, sandboxReceiptAtProduction, productionReceiptAtSandbox]

    /// The environment a status itself establishes: 21007 says Sandbox, 21008 says Production.
    public static func environment(impliedBy status: Int?) -> StoreEnvironment? {
        switch status {
        case sandboxReceiptAtProduction: return .sandbox
        case productionReceiptAtSandbox: return .production
        default: return nil
        }
    }

    /// The verdict of a final status.
    public static func verdict(for status: Int) -> VerifyReceiptVerdict {
        switch status {
        case valid, validButSubscriptionExpired: return .valid
        case malformedReceiptData, notAuthenticated, accountNotFound: return .invalid
        case sandboxReceiptAtProduction, productionReceiptAtSandbox: return .wrongEnvironment
        case notPost, unusedRequestError, sharedSecretMismatch: return .configurationProblem
        default: return .unresolved
        }
    }

    /// Whether a status is transient: 21005, 21009, or 21100–21199 unless `is-retryable` is
    /// false; any other non-zero status explicitly marked `is-retryable: true` too.
    public static func isTransient(_ status: Int, isRetryable: Bool?) -> Bool {
        if status == valid { return false }
        if status == serverUnavailable || status == internalDataAccessError { return isRetryable != false }
        if internalDataAccessErrors.contains(status) { return isRetryable != false }
        return isRetryable == true
    }
}
