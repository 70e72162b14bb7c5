import AppStoreTestSigning
import Foundation
import Hummingbird
import IAPRecon

/// Get All Subscription Statuses (`GET /inApps/v1/subscriptions/{transactionId}`), answered from the seed as of the
/// simulator's now (the seed's ``SimulatorSeed/subscriptionStatusesAsOf`` when set).
///
/// The subscription of the id asked (any of its transaction ids) is its transactions purchased by now, in the asked
/// environment; its latest one decides Apple's `status`
/// (https://developer.apple.com/documentation/appstoreserverapi/status): 5 revoked when it was refunded or revoked
/// by now (and not reversed by now), 1 active while its period covers now; once the period ended unrenewed, 4 in
/// the billing grace period, 3 in billing retry, else 2 expired (see ``SimulatorSubscription``). The signed
/// transaction and renewal info are signed at now and show nothing that happened after it. An id unknown in the
/// environment (or purchased after now) is 404 with `OriginalTransactionIdNotFoundError` (4040005), as Apple answers.
/// Apple: https://developer.apple.com/documentation/appstoreserverapi/get-all-subscription-statuses
enum SimulatedSubscriptionStatus {
    static let notFound = SimulatorReply.apiError(404, code: 4_040_005, message: "Original transaction id not found.")

    /// Apple's view of one subscription at one moment.
    struct State: Sendable, Hashable {
        /// Apple's `status`, 1…5.
        var status: Int
        /// The latest transaction purchased by then.
        var latest: SimulatorTransaction
        var autoRenew: Bool
        var expirationIntent: Int?
        var isInBillingRetryPeriod: Bool
        var gracePeriodExpiresDate: Int64?
        var recentSubscriptionStartDate: Int64
    }

    /// The state at `now` (epoch ms) of a subscription whose periods (chronological) are `periods`; nil when none
    /// was purchased by then.
    static func state(of periods: [SimulatorTransaction], renewal: SimulatorSubscription?, at now: Int64) -> State? {
        let known = periods.filter { $0.purchaseDate <= now }
        guard let latest = known.last else { return nil }
        var start = latest.purchaseDate
        for period in known.dropLast().reversed() {
            guard (period.expiresDate ?? .min) >= start else { break }
            start = period.purchaseDate
        }
        let autoRenewOff = renewal?.autoRenewOffDate.map { $0 <= now } ?? false
        var state = State(
            status: 1, latest: latest, autoRenew: !autoRenewOff, expirationIntent: nil, isInBillingRetryPeriod: false,
            gracePeriodExpiresDate: nil, recentSubscriptionStartDate: start)
        let revoked = latest.revocationDate.map { $0 <= now } ?? false
        let reversed = latest.refundReversedDate.map { $0 <= now } ?? false
        if revoked, !reversed {
            state.status = 5
            return state
        }
        let ends = latest.expiresDate ?? latest.purchaseDate
        if ends > now { return state }
        // The period ended by now, unrenewed: a billing failure Apple still retries, or the end.
        let grace = renewal?.gracePeriodExpiresDate.flatMap { $0 > ends ? $0 : nil }
        let retryEnd = renewal?.billingRetryEndDate.flatMap { $0 > ends ? $0 : nil }
        guard grace != nil || retryEnd != nil, !autoRenewOff else {
            // Not renewed: the customer turned auto-renew off, or simply did not renew.
            state.status = 2
            state.autoRenew = false
            state.expirationIntent = 1
            return state
        }
        state.gracePeriodExpiresDate = grace
        if let grace, now < grace {
            state.status = 4
            state.isInBillingRetryPeriod = true
        } else if let retryEnd, now < retryEnd {
            state.status = 3
            state.isInBillingRetryPeriod = true
        } else {
            state.status = 2
            state.expirationIntent = 2
        }
        return state
    }

    /// Apple's `JWSRenewalInfoDecodedPayload`, the fields a status answer states.
    struct RenewalInfo: Encodable {
        var originalTransactionId: String
        var autoRenewProductId: String
        var productId: String
        var autoRenewStatus: Int
        var expirationIntent: Int?
        var isInBillingRetryPeriod: Bool
        var gracePeriodExpiresDate: Int64?
        var signedDate: Int64
        var environment: String
        var recentSubscriptionStartDate: Int64
        var renewalDate: Int64?
    }

    /// The answer to one request.
    static func answer(
        store: SimulatorStore, authority: SigningAuthority, environment: StoreEnvironment, id: String, now: Date,
        bundleID: String?
    ) -> SimulatorReply {
        let at = Int64((now.timeIntervalSince1970 * 1000).rounded())
        guard let asked = store.transactions[id], asked.storeEnvironment == environment,
            store.belongs(asked, to: bundleID), asked.purchaseDate <= at
        else { return notFound }
        var body: [String: SimJSON] = [
            "environment": .string(environment.rawValue), "bundleId": .string(asked.bundleId ?? store.seed.bundleId),
            "data": .array([]),
        ]
        if environment == .production, let app = store.seed.appAppleId { body["appAppleId"] = .integer(app) }
        let renewal = store.subscriptions[asked.originalID]
        let periods = (store.families[asked.originalID] ?? []).filter {
            $0.storeEnvironment == environment && $0.isAutoRenewable && store.belongs($0, to: bundleID)
        }
        guard asked.isAutoRenewable, let state = state(of: periods, renewal: renewal, at: at) else {
            return SimulatorReply.json(200, body)
        }
        let group = renewal?.groupID ?? SimulatorSubscription(originalTransactionId: asked.originalID).groupID
        var transaction = SimulatedServerAPI.payload(asOf(state.latest, at), store: store, now: now)
        transaction.subscriptionGroupIdentifier = group
        let info = RenewalInfo(
            originalTransactionId: asked.originalID, autoRenewProductId: state.latest.productId,
            productId: state.latest.productId, autoRenewStatus: state.autoRenew ? 1 : 0,
            expirationIntent: state.expirationIntent, isInBillingRetryPeriod: state.isInBillingRetryPeriod,
            gracePeriodExpiresDate: state.gracePeriodExpiresDate, signedDate: at,
            environment: environment.rawValue, recentSubscriptionStartDate: state.recentSubscriptionStartDate,
            renewalDate: state.latest.expiresDate)
        guard let signedTransaction = try? JWSSigner.sign(payload: transaction, authority: authority),
            let signedRenewal = try? JWSSigner.sign(payload: info, authority: authority)
        else {
            return SimulatorReply.apiError(500, code: 5_000_000, message: "An unknown error occurred.")
        }
        let item: [String: SimJSON] = [
            "originalTransactionId": .string(asked.originalID), "status": .integer(Int64(state.status)),
            "signedTransactionInfo": .string(signedTransaction), "signedRenewalInfo": .string(signedRenewal),
        ]
        body["data"] = .array([
            .object(["subscriptionGroupIdentifier": .string(group), "lastTransactions": .array([.object(item)])])
        ])
        return SimulatorReply.json(200, body)
    }

    /// `transaction` as Apple would sign it at `now`: a refund or revocation dated later has not happened, nor has a
    /// later reversal of it.
    static func asOf(_ transaction: SimulatorTransaction, _ now: Int64) -> SimulatorTransaction {
        var transaction = transaction
        if let revoked = transaction.revocationDate, revoked > now {
            transaction.revocationDate = nil
            transaction.revocationReason = nil
            transaction.revocationType = nil
            transaction.revocationPercentage = nil
            transaction.refundReversedDate = nil
        }
        if let reversed = transaction.refundReversedDate, reversed > now { transaction.refundReversedDate = nil }
        return transaction
    }
}

extension AppStoreSimulator {
    /// Adds `GET /:environment/inApps/v1/subscriptions/:id` (``SimulatedSubscriptionStatus``).
    static func addSubscriptionStatusRoute(to router: Router<SimulatorContext>, state: SimulatorState) {
        router.get("/:environment/inApps/v1/subscriptions/:id") { request, context -> Response in
            serverAPI(request, context, state) { environment, now, bundleID in
                let asOf = state.store.seed.subscriptionStatusesAsOf.map {
                    Date(timeIntervalSince1970: Double($0) / 1000)
                }
                return SimulatedSubscriptionStatus.answer(
                    store: state.store, authority: state.authority, environment: environment,
                    id: context.parameters.get("id") ?? "", now: asOf ?? now, bundleID: bundleID)
            }
        }
    }
}
