import Foundation
import IAPReconTestSupport
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify

/// Support sees a subscription's story: everything Apple said about it — every notification and signed transaction
/// under its original transaction id, in order — even when the ledger has no row for it
/// (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
@Suite struct LookupSubscriptionTests {
    let dir = TemporaryDirectory("lookup-subscription")
    static let day: Int64 = 86_400_000
    static let t0: Int64 = 1_795_000_000_000  // 2026-11-18T09:46:40Z

    /// A monthly subscription Apple sold and renewed, whose auto-renew the customer turned off and which expired.
    ///
    /// The ledger never booked it. And a Sandbox subscription.
    func makeStore() async throws -> ReconConfig {
        let t0 = Self.t0
        let day = Self.day
        func period(_ id: String, start: Int64, environment: String = "Production") -> JWSTransactionDecodedPayload {
            var payload = SignedNotifications.transaction(
                id, original: id.hasSuffix("9") ? id : "4000000001", product: "monthly",
                type: "Auto-Renewable Subscription", purchased: start, price: 2_990, environment: environment,
                signedDate: start)
            payload.expiresDate = start + 30 * day
            return payload
        }
        let first = period("4000000001", start: t0 - 60 * day)
        let renewal = period("4000000002", start: t0 - 30 * day)
        let lines = [
            try SignedNotifications.sign(
                "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n1", signedDate: t0 - 60 * day, transaction: first,
                renewal: true),
            try SignedNotifications.sign(
                "DID_RENEW", uuid: "n2", signedDate: t0 - 30 * day, transaction: renewal, renewal: true),
            try SignedNotifications.sign(
                "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", uuid: "n3", signedDate: t0 - 5 * day,
                transaction: renewal, renewal: true),
            try SignedNotifications.sign(
                "EXPIRED", subtype: "VOLUNTARY", uuid: "n4", signedDate: t0, transaction: renewal, renewal: true),
            try SignedNotifications.sign(
                "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "n5", signedDate: t0 - 2 * day,
                transaction: period("4000000009", start: t0 - 2 * day, environment: "Sandbox"), environment: "Sandbox",
                renewal: true),
        ].map { SignedNotifications.line($0) }
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        config.bundleIDs = [SignedNotifications.bundle]
        config.trustedRoots = [try SignedNotifications.rootFile(in: dir.path)]
        let entitlements = try dir.write(
            "e.csv",
            "user_id,original_transaction_id,product_id,expires_at\nu1,4000000001,monthly,\(t0 - 30 * day)\n")
        _ = try await config.dependencies(at: t0 + 1_000).importFiles(
            ImportRequest(
                notifications: [try dir.write("n.jsonl", lines.joined(separator: "\n") + "\n")],
                entitlements: [entitlements]))
        return config
    }

    @Test func aSubscriptionKnownOnlyFromNotificationsTellsItsStory() async throws {
        let config = try await makeStore()
        let report = try await config.dependencies(at: Self.t0 + 2_000).answer(.originalTransaction("4000000001"))
            .report
        #expect(report.answer.hasPrefix("original transaction 4000000001: charged for 2 purchases"), "\(report.answer)")
        let kinds = report.events.map(\.kind)
        #expect(kinds.filter { $0 == "notification" }.count == 4, "\(kinds)")
        let text = report.text()
        #expect(text.contains("Apple notification SUBSCRIBED/INITIAL_BUY"), "\(text)")
        #expect(text.contains("; the customer subscribed for the first time"), "\(text)")
        #expect(text.contains("; the subscription renewed: access continues"), "\(text)")
        #expect(text.contains("; auto-renew turned off: access ends at the end of the period"), "\(text)")
        #expect(text.contains("; expired after the customer turned auto-renew off"), "\(text)")
        #expect(text.contains("Apple signed transaction 4000000002 (monthly): renewal until"), "\(text)")
        #expect(text.contains("the backend's access for u1 to monthly (subscription 4000000001, Production) ends"))
        // In order: the first period, the renewal, auto-renew off, the expiry.
        let order = ["SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY"].map {
            text.range(of: $0)?.lowerBound
        }
        #expect(
            order.allSatisfy { $0 != nil } && order == order.sorted { ($0 ?? text.endIndex) < ($1 ?? text.endIndex) })
    }

    @Test func aSandboxSubscriptionIsNeverCharged() async throws {
        let config = try await makeStore()
        let report = try await config.dependencies(at: Self.t0 + 2_000).answer(.originalTransaction("4000000009"))
            .report
        #expect(
            report.answer == "original transaction 4000000009: no charge: 1 test purchase (Sandbox)", "\(report.answer)"
        )
        #expect(report.charged == 0)
        #expect(report.text().contains("test period (no charge)"), "\(report.text())")
    }
}
