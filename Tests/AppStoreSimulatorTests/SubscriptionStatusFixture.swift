import AppStoreSimulator
import Foundation
import IAPRecon

/// Subscriptions in each of Apple's five states at "now" (the real time the fixture is built: the simulator answers
/// as of its clock), days away from any edge so a slow test never crosses one.
///
/// Original transaction ids: 5100 active (renewed once), 5200 in its billing grace period, 5300 in billing retry
/// after its grace period, 5400 expired (auto-renew turned off), 5500 refunded two days ago, 5600 active in sandbox
/// only, 5700 active with a refund dated after now; plus ``SimFixture``'s subscription 3000, expired in 2024.
struct SubscriptionStatusFixture {
    static let day: Int64 = 86_400_000
    let now: Int64

    init(now: Date = Date()) {
        self.now = Int64((now.timeIntervalSince1970 * 1000).rounded())
    }

    /// A 30-day period of `pro.monthly` starting `start`, refunded at `revoked`.
    func period(
        _ id: String, of original: String, from start: Int64, environment: String = "Production",
        revoked: Int64? = nil
    ) -> SimulatorTransaction {
        SimulatorTransaction(
            transactionId: id, originalTransactionId: original, productId: "pro.monthly", environment: environment,
            purchaseDate: start, expiresDate: start + 30 * Self.day, type: "Auto-Renewable Subscription",
            price: 4_990, currency: "USD", storefront: "USA", revocationDate: revoked,
            revocationReason: revoked.map { _ in 0 },
            revocationType: revoked.map { _ in "REFUND_FULL" })
    }

    var seed: SimulatorSeed {
        let day = Self.day
        var seed = SimFixture.seed()
        seed.transactions += [
            period("5100", of: "5100", from: now - 40 * day), period("5101", of: "5100", from: now - 10 * day),
            period("5200", of: "5200", from: now - 35 * day),
            period("5300", of: "5300", from: now - 50 * day),
            period("5400", of: "5400", from: now - 100 * day),
            period("5500", of: "5500", from: now - 10 * day, revoked: now - 2 * day),
            period("5600", of: "5600", from: now - 5 * day, environment: "Sandbox"),
            period("5700", of: "5700", from: now - 5 * day, revoked: now + 5 * day),
        ]
        seed.subscriptions = [
            SimulatorSubscription(
                originalTransactionId: "5200", gracePeriodExpiresDate: now + 11 * day,
                billingRetryEndDate: now + 55 * day),
            SimulatorSubscription(
                originalTransactionId: "5300", gracePeriodExpiresDate: now - 4 * day,
                billingRetryEndDate: now + 40 * day),
            SimulatorSubscription(originalTransactionId: "5400", autoRenewOffDate: now - 80 * day),
        ]
        return seed
    }

    /// The backend's entitlements (CSV, CONTRACT §1.8): every subscription above, 5100 held by two users, 3000 long
    /// expired, and one Apple does not know.
    var entitlementsCSV: String {
        let day = Self.day
        let rows: [(String, String, Int64)] = [
            ("u1", "5100", now + 20 * day), ("u1-family", "5100", now + 20 * day), ("u2", "5200", now + 11 * day),
            ("u3", "5300", now - 20 * day), ("u4", "5400", now - 50 * day), ("u5", "5500", now + 20 * day),
            ("u6", "5600", now + 25 * day), ("u7", "5700", now + 25 * day), ("u8", "3000", 1_713_000_000_000),
            ("u9", "999999", now + 10 * day),
        ]
        return "user_id,original_transaction_id,product_id,expires_at,environment\n"
            + rows.map { "\($0.0),\($0.1),pro.monthly,\($0.2),Production\n" }.joined()
    }
}
