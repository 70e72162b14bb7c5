import Foundation
import ReconModel

/// Get All Subscription Statuses' answer (Apple's `StatusResponse`).
///
/// Apple: https://developer.apple.com/documentation/appstoreserverapi/statusresponse
public struct SubscriptionStatusesAnswer: Sendable, Hashable {
    /// The environment that answered (the answer's `environment`, else the one asked).
    public var environment: StoreEnvironment
    /// `bundleId`.
    public var bundleID: String?
    /// `appAppleId` (Apple leaves it out in sandbox).
    public var appAppleID: Int64?
    /// `data`: one item per subscription group of the customer.
    public var data: [SubscriptionGroupIdentifierItem]
    /// HTTP attempts made, across both environments.
    public var attempts: Int

    /// Creates an answer value.
    public init(
        environment: StoreEnvironment, bundleID: String? = nil, appAppleID: Int64? = nil,
        data: [SubscriptionGroupIdentifierItem], attempts: Int
    ) {
        self.environment = environment
        self.bundleID = bundleID
        self.appAppleID = appAppleID
        self.data = data
        self.attempts = attempts
    }

    /// The latest transaction of the subscription `originalTransactionID`, in whichever group Apple lists it; nil
    /// when the answer does not name it (the customer's other subscriptions are listed too).
    public func lastTransaction(originalTransactionID: String) -> LastTransactionsItem? {
        for group in data {
            if let item = group.lastTransactions.first(where: { $0.originalTransactionId == originalTransactionID }) {
                return item
            }
        }
        return nil
    }
}

/// One subscription group in a `StatusResponse`.
///
/// Apple: https://developer.apple.com/documentation/appstoreserverapi/subscriptiongroupidentifieritem
public struct SubscriptionGroupIdentifierItem: Sendable, Hashable {
    /// `subscriptionGroupIdentifier`.
    public var subscriptionGroupIdentifier: String?
    /// `lastTransactions`: the latest transaction of each subscription in the group.
    public var lastTransactions: [LastTransactionsItem]

    /// Creates an item.
    public init(subscriptionGroupIdentifier: String?, lastTransactions: [LastTransactionsItem]) {
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.lastTransactions = lastTransactions
    }
}

/// The latest transaction of one subscription, with its status, as Apple sent them: the two JWS are still to be
/// verified.
///
/// Apple: https://developer.apple.com/documentation/appstoreserverapi/lasttransactionsitem
public struct LastTransactionsItem: Sendable, Hashable {
    /// `originalTransactionId`.
    public var originalTransactionId: String?
    /// `status`, raw: 1 active, 2 expired, 3 billing retry, 4 billing grace period, 5 revoked
    /// (https://developer.apple.com/documentation/appstoreserverapi/status); see ``SubscriptionStatus/Code``.
    public var status: Int64?
    /// `signedTransactionInfo`: the latest transaction, a JWS.
    public var signedTransactionInfo: String?
    /// `signedRenewalInfo`: the renewal info, a JWS.
    public var signedRenewalInfo: String?

    /// Creates an item.
    public init(
        originalTransactionId: String?, status: Int64?, signedTransactionInfo: String?, signedRenewalInfo: String?
    ) {
        self.originalTransactionId = originalTransactionId
        self.status = status
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
    }
}

extension AppStoreServerAPIClient {
    /// Get All Subscription Statuses (`GET /inApps/v1/subscriptions/{transactionId}`).
    ///
    /// Apple: https://developer.apple.com/documentation/appstoreserverapi/get-all-subscription-statuses
    /// (any transaction id of the customer; an original transaction id works too). Production first, then sandbox
    /// when production answers 4040005 (`OriginalTransactionIdNotFoundError`), 4040010 or a bare 401; an id
    /// neither knows is a failure whose ``APIFailure/apiError`` says "not found"
    /// (``AppleAPIError/isNotFoundInEnvironment``).
    ///
    /// - Parameters:
    ///   - transactionID: The subscription's original transaction id (or any of its transaction ids).
    ///   - environment: The environment to ask; nil asks production, then sandbox.
    public func allSubscriptionStatuses(transactionID: String, environment: StoreEnvironment? = nil) async
        -> ServerAPIResult<SubscriptionStatusesAnswer>
    {
        let path = "/inApps/v1/subscriptions/" + Self.escapePath(transactionID)
        let (call, asked, attempts) = await acrossApps(
            { signer in
                await performWithFallback(
                    .subscriptionStatuses, environment: environment, path: path, query: [], signer: signer
                ) { json in Self.decodeStatusResponse(json) }
            }, notFound: { Self.isNotFound($0.0) })
        return call.result(environment: asked, attempts: attempts) { decoded in
            var answer = decoded.answer
            answer.environment = decoded.stated ?? asked
            answer.attempts = attempts
            return answer
        }
    }

    /// A `StatusResponse` with the environment it states, or nil when the body is not one (retried as malformed).
    package static func decodeStatusResponse(_ json: AppleJSONValue) -> (
        stated: StoreEnvironment?, answer: SubscriptionStatusesAnswer
    )? {
        guard json.object != nil, case .array(let data) = json["data"] else { return nil }
        let groups = data.map { group in
            SubscriptionGroupIdentifierItem(
                subscriptionGroupIdentifier: group["subscriptionGroupIdentifier"]?.string,
                lastTransactions: (group["lastTransactions"]?.list ?? []).map { item in
                    LastTransactionsItem(
                        originalTransactionId: item["originalTransactionId"]?.string, status: item["status"]?.int64,
                        signedTransactionInfo: item["signedTransactionInfo"]?.string,
                        signedRenewalInfo: item["signedRenewalInfo"]?.string)
                })
        }
        let answer = SubscriptionStatusesAnswer(
            environment: .production, bundleID: json["bundleId"]?.string, appAppleID: json["appAppleId"]?.int64,
            data: groups, attempts: 0)
        return (json["environment"]?.string.map(StoreEnvironment.init(raw:)), answer)
    }
}
