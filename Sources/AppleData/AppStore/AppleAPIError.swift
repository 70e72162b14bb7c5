import Foundation
import ReconModel

/// An App Store Server API error code (`errorCode` in an error body), kept raw.
///
/// Codes Apple adds later still round-trip: `AppleAPIError(rawValue: 9990000)` is simply an
/// unknown code. The named constants mirror Apple's
/// [error codes](https://developer.apple.com/documentation/appstoreserverapi/error-codes).
public struct AppleAPIError: RawRepresentable, Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Apple's numeric code.
    public var rawValue: Int64

    /// Wraps a raw code.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Wraps a raw code.
    public init(_ code: Int64) { self.rawValue = code }

    /// 4000000: an invalid request.
    public static let generalBadRequest = AppleAPIError(4_000_000)
    /// 4000005: the `revision` parameter is invalid.
    public static let invalidRequestRevision = AppleAPIError(4_000_005)
    /// 4000006: the transaction id is invalid.
    public static let invalidTransactionID = AppleAPIError(4_000_006)
    /// 4000012: the start date is earlier than the earliest allowed date (Get Notification History keeps 180 days
    /// in production, 30 in sandbox; https://developer.apple.com/documentation/appstoreserverapi/startdatetoofarinpasterror).
    public static let startDateTooFarInPast = AppleAPIError(4_000_012)
    /// 4040001: App Store account not found.
    public static let accountNotFound = AppleAPIError(4_040_001)
    /// 4040002: App Store account not found; retry.
    public static let accountNotFoundRetryable = AppleAPIError(4_040_002)
    /// 4040003: app not found.
    public static let appNotFound = AppleAPIError(4_040_003)
    /// 4040004: app not found; retry.
    public static let appNotFoundRetryable = AppleAPIError(4_040_004)
    /// 4040005: original transaction id not found (in this environment).
    public static let originalTransactionIDNotFound = AppleAPIError(4_040_005)
    /// 4040006: original transaction id not found; retry.
    public static let originalTransactionIDNotFoundRetryable = AppleAPIError(4_040_006)
    /// 4040010: transaction id not found (in this environment).
    public static let transactionIDNotFound = AppleAPIError(4_040_010)
    /// 4290000: rate limit exceeded.
    public static let rateLimitExceeded = AppleAPIError(4_290_000)
    /// 5000000: general internal error.
    public static let generalInternal = AppleAPIError(5_000_000)
    /// 5000001: general internal error; retry.
    public static let generalInternalRetryable = AppleAPIError(5_000_001)

    private static let names: [Int64: String] = [
        4_000_000: "general bad request", 4_000_005: "invalid request revision",
        4_000_006: "invalid transaction id", 4_000_012: "start date too far in past", 4_040_001: "account not found",
        4_040_002: "account not found (retryable)", 4_040_003: "app not found",
        4_040_004: "app not found (retryable)", 4_040_005: "original transaction id not found",
        4_040_006: "original transaction id not found (retryable)", 4_040_010: "transaction id not found",
        4_290_000: "rate limit exceeded", 5_000_000: "general internal error",
        5_000_001: "general internal error (retryable)",
    ]

    /// Apple's name for a known code; nil for a code this build does not know.
    public var name: String? { Self.names[rawValue] }

    /// Whether the code is one Apple marks as temporary (retry later).
    public var isRetryable: Bool {
        switch self {
        case .accountNotFoundRetryable, .appNotFoundRetryable, .originalTransactionIDNotFoundRetryable,
            .rateLimitExceeded, .generalInternal, .generalInternalRetryable:
            return true
        default:
            return false
        }
    }

    /// Whether the code means "not in this environment": the other environment may know it.
    public var isNotFoundInEnvironment: Bool {
        self == .transactionIDNotFound || self == .originalTransactionIDNotFound
    }

    public var description: String {
        if let name { return "\(rawValue) (\(name))" }
        return "\(rawValue) (unknown code)"
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// An HTTP error answer from the App Store Server API.
public struct APIFailure: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status.
    public var httpStatus: Int
    /// Apple's error code from the body, when there was one.
    public var apiError: AppleAPIError?
    /// Apple's `errorMessage`, when there was one.
    public var message: String?
    /// The environment that gave this answer.
    public var environment: StoreEnvironment
    /// HTTP attempts made in total (every environment and page).
    public var attempts: Int

    /// Creates a failure value.
    public init(
        httpStatus: Int, apiError: AppleAPIError? = nil, message: String? = nil, environment: StoreEnvironment,
        attempts: Int
    ) {
        self.httpStatus = httpStatus
        self.apiError = apiError
        self.message = message
        self.environment = environment
        self.attempts = attempts
    }

    public var description: String {
        var text = "HTTP \(httpStatus) from \(environment)"
        if let apiError { text += ", error \(apiError)" }
        if let message { text += ": \(message)" }
        return text
    }
}

/// What an App Store Server API call ended with: always a value, never a thrown error.
public enum ServerAPIResult<Value: Sendable & Hashable>: Sendable, Hashable {
    /// Apple answered with data.
    case success(Value)
    /// Apple answered with an error that retrying does not fix (or that stayed after retries).
    case failure(APIFailure)
    /// No usable answer within the retry budget (timeouts, resets, 5xx, 429): try again later.
    case unreachable(reason: String, attempts: Int)

    /// The value on success.
    public var value: Value? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The failure, when Apple answered with an error.
    public var failure: APIFailure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
