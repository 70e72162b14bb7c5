import Foundation
import IAPRecon
import Testing

@testable import AppStoreSimulator

/// The simulator tells the truth in time: one seeded subscription read at one moment after another goes through
/// Apple's `status` values (https://developer.apple.com/documentation/appstoreserverapi/status) as its periods,
/// grace period, billing retry and refund come and go, and never shows what happens after the moment it is asked.
@Suite struct SimulatedSubscriptionStatusTests {
    static let day: Int64 = 86_400_000
    static let start: Int64 = 1_790_000_000_000

    static func period(_ id: String, from start: Int64, revoked: Int64? = nil, reversed: Int64? = nil)
        -> SimulatorTransaction
    {
        SimulatorTransaction(
            transactionId: id, originalTransactionId: "7000", productId: "pro.monthly", purchaseDate: start,
            expiresDate: start + 30 * day, type: "Auto-Renewable Subscription", price: 4_990, currency: "USD",
            revocationDate: revoked, revocationType: revoked.map { _ in "REFUND_FULL" }, refundReversedDate: reversed)
    }

    /// Two periods, then billing fails on day 60: a grace period until day 76, then billing retry until day 110; it
    /// recovers with a third period on day 80, whose refund on day 95 is reversed on day 100, and which lapses on
    /// day 110 (the billing windows were for the earlier failure).
    static let periods = [
        period("7000", from: start), period("7001", from: start + 30 * day),
        period("7002", from: start + 80 * day, revoked: start + 95 * day, reversed: start + 100 * day),
    ]
    static let renewal = SimulatorSubscription(
        originalTransactionId: "7000", gracePeriodExpiresDate: start + 76 * day, billingRetryEndDate: start + 110 * day)

    @Test(
        "Apple's status at each moment",
        arguments: [
            (-1, nil), (10, 1), (40, 1), (65, 4), (78, 3), (85, 1), (96, 5), (101, 1), (115, 2), (150, 2),
        ] as [(Int64, Int?)])
    func statusAtEachMoment(day: Int64, expected: Int?) {
        let state = SimulatedSubscriptionStatus.state(
            of: Self.periods, renewal: Self.renewal, at: Self.start + day * Self.day)
        #expect(state?.status == expected)
    }

    @Test func whatTheStateSaysBesideTheStatus() throws {
        let grace = try #require(
            SimulatedSubscriptionStatus.state(of: Self.periods, renewal: Self.renewal, at: Self.start + 65 * Self.day))
        #expect(grace.latest.transactionId == "7001")
        #expect(grace.isInBillingRetryPeriod && grace.autoRenew)
        #expect(grace.gracePeriodExpiresDate == Self.start + 76 * Self.day)
        #expect(grace.recentSubscriptionStartDate == Self.start)
        let recovered = try #require(
            SimulatedSubscriptionStatus.state(of: Self.periods, renewal: Self.renewal, at: Self.start + 85 * Self.day))
        #expect(recovered.latest.transactionId == "7002")
        #expect(!recovered.isInBillingRetryPeriod)
        // A lapse of billing retry starts a new run of continuous service.
        #expect(recovered.recentSubscriptionStartDate == Self.start + 80 * Self.day)
        let lapsed = try #require(
            SimulatedSubscriptionStatus.state(
                of: [Self.period("7000", from: Self.start)], renewal: nil,
                at: Self.start + 31 * Self.day))
        #expect(lapsed.status == 2 && lapsed.expirationIntent == 1 && !lapsed.autoRenew)
    }

    @Test func autoRenewTurnedOffEndsThePeriodUnrenewedWhateverBillingWouldHaveDone() throws {
        var renewal = Self.renewal
        renewal.autoRenewOffDate = Self.start + 50 * Self.day
        let before = try #require(
            SimulatedSubscriptionStatus.state(of: Self.periods, renewal: renewal, at: Self.start + 45 * Self.day))
        #expect(before.status == 1 && before.autoRenew)
        let off = try #require(
            SimulatedSubscriptionStatus.state(of: Self.periods, renewal: renewal, at: Self.start + 55 * Self.day))
        #expect(off.status == 1 && !off.autoRenew)
        let ended = try #require(
            SimulatedSubscriptionStatus.state(of: Self.periods, renewal: renewal, at: Self.start + 65 * Self.day))
        #expect(ended.status == 2 && ended.expirationIntent == 1)
    }

    @Test func theSignedTransactionShowsNoRefundBeforeItHappensAndNoReversalBeforeThat() {
        let refunded = Self.periods[2]
        #expect(SimulatedSubscriptionStatus.asOf(refunded, Self.start + 90 * Self.day).revocationDate == nil)
        let afterRefund = SimulatedSubscriptionStatus.asOf(refunded, Self.start + 96 * Self.day)
        #expect(afterRefund.revocationDate == Self.start + 95 * Self.day)
        #expect(afterRefund.refundReversedDate == nil)
        let afterReversal = SimulatedSubscriptionStatus.asOf(refunded, Self.start + 101 * Self.day)
        #expect(afterReversal.refundReversedDate == Self.start + 100 * Self.day)
    }

    @Test func aSeedFileNamesSubscriptionsLikeItsTransactionsAndOlderSeedsReadAsBefore() throws {
        let json = #"""
            {"bundleId": "com.example.app", "transactions": [], "receipts": [],
             "subscriptions": [{"originalTransactionId": 7000, "gracePeriodExpiresDate": "2026-11-20T12:00:00Z",
                                "billingRetryEndDate": 1795176000000}]}
            """#
        let seed = try JSONDecoder().decode(SimulatorSeed.self, from: Data(json.utf8))
        #expect(
            seed.subscriptions == [
                SimulatorSubscription(
                    originalTransactionId: "7000", gracePeriodExpiresDate: 1_795_176_000_000,
                    billingRetryEndDate: 1_795_176_000_000)
            ])
        // A seed without subscriptions writes the same JSON as before they existed.
        let older = SimulatorSeed(bundleId: "com.example.app")
        #expect(!String(decoding: try older.jsonData(), as: UTF8.self).contains("subscriptions"))
    }
}
