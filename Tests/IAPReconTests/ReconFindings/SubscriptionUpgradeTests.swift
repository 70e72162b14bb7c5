import AppStoreTestSigning
import Foundation
import IAPReconTestSupport
import Logging
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

/// `DID_CHANGE_RENEWAL_PREF` / `UPGRADE` as Apple documents it: "The upgrade goes into effect immediately,
/// starting a new billing period, and the customer receives a prorated refund for the unused portion of the
/// previous period" (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype).
///
/// The notification carries the new transaction (`transactionReason` `PURCHASE`:
/// https://developer.apple.com/documentation/appstoreserverapi/transactionreason); the upgraded one is marked
/// `isUpgraded` (https://developer.apple.com/documentation/appstoreserverapi/isupgraded). No field of either
/// states the prorated refund's amount, unless the upgraded transaction carries a `REFUND_PRORATED`
/// `revocationPercentage` as in Apple's own vector `signedTransactionWithRevocation.json` (`isUpgraded` with a
/// 50 % prorated revocation).
@Suite struct SubscriptionUpgradeTests {
    let dir = TemporaryDirectory("subscription-upgrade")
    let logger = Logger.quiet
    static let day = NotificationImportTests.day
    static let hour = NotificationImportTests.hour
    static let d18 = NotificationImportTests.d18
    static let asOf = NotificationImportTests.asOf
    static let subscription = "Auto-Renewable Subscription"
    /// The upgrade: 2026-11-19T01:00:00Z.
    static let upgradedAt = d18 + day + hour

    func config() throws -> ReconConfig {
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        config.bundleIDs = [SignedNotifications.bundle]
        config.trustedRoots = [try SignedNotifications.rootFile(in: dir.path)]
        config.asOf = Self.asOf
        // Nothing here is pending: no call is made, and none could reach anyone.
        config.verifyReceiptURL = "http://127.0.0.1:9/production/verifyReceipt"
        config.sandboxVerifyReceiptURL = "http://127.0.0.1:9/sandbox/verifyReceipt"
        config.serverAPIURL = "http://127.0.0.1:9/production"
        config.sandboxServerAPIURL = "http://127.0.0.1:9/sandbox"
        return config
    }

    /// The customer's first subscription (s1, monthly), bought on 2026-11-18.
    static func monthly(signed: Int64) -> JWSTransactionDecodedPayload {
        SignedNotifications.transaction(
            "s1", original: "s1", product: "pro.monthly", type: subscription, purchased: d18 + hour, price: 4_000,
            signedDate: signed)
    }

    /// The new transaction of the upgrade (s2, yearly), in the same subscription group: same
    /// original transaction, `transactionReason` `PURCHASE`.
    static func yearly() -> JWSTransactionDecodedPayload {
        var payload = SignedNotifications.transaction(
            "s2", original: "s1", product: "pro.yearly", type: subscription, purchased: upgradedAt, price: 49_990,
            signedDate: upgradedAt)
        payload.transactionReason = "PURCHASE"
        return payload
    }

    /// SUBSCRIBED for s1, then DID_CHANGE_RENEWAL_PREF / UPGRADE carrying s2.
    static func notifications() throws -> [String] {
        [
            try SignedNotifications.sign(
                "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "00000000-0000-4000-8000-0000000000c1",
                signedDate: d18 + hour, transaction: monthly(signed: d18 + hour), renewal: true),
            try SignedNotifications.sign(
                "DID_CHANGE_RENEWAL_PREF", subtype: "UPGRADE", uuid: "00000000-0000-4000-8000-0000000000c2",
                signedDate: upgradedAt, transaction: yearly(), renewal: true),
        ]
    }

    /// The notifications as the webhook stored them.
    static func webhookFile() throws -> String {
        try notifications().map { SignedNotifications.line($0) }.joined(separator: "\n") + "\n"
    }

    /// How Apple's later signed transaction of s1 (StoreKit 2, uploaded by the app) describes it.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var isUpgraded: Bool
        var revoked: Bool
        var revocationType: String?
        var revocationPercentage: Int32?
        /// The refund on s1's revenue line of the upgrade day, or nil for none.
        var refund: String?
        var refundedDelivered: Bool
        /// What the backend's ledger says of s1.
        var status = "verified"
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "isUpgraded with REFUND_PRORATED 50 % (Apple's vector): the stated share, no finding",
            isUpgraded: true, revoked: true, revocationType: "REFUND_PRORATED", revocationPercentage: 50_000,
            refund: "2.00", refundedDelivered: false),
        Case(
            name: "isUpgraded with a revocationDate and no share: no amount invented, no finding",
            isUpgraded: true, revoked: true, revocationType: nil, revocationPercentage: nil, refund: nil,
            refundedDelivered: false),
        Case(
            name: "isUpgraded alone: the sale stands, no finding", isUpgraded: true, revoked: false,
            revocationType: nil, revocationPercentage: nil, refund: nil, refundedDelivered: false),
        Case(
            name: "isUpgraded, and the backend marked s1 invalid: ended correctly, the sale stays on its day",
            isUpgraded: true, revoked: false, revocationType: nil, revocationPercentage: nil, refund: nil,
            refundedDelivered: false, status: "invalid"),
        Case(
            name: "near miss: not upgraded, REFUND_PRORATED 50 %: a customer refund",
            isUpgraded: false, revoked: true, revocationType: "REFUND_PRORATED", revocationPercentage: 50_000,
            refund: "2.00", refundedDelivered: true),
    ]

    /// Two reports of one store: the first knows the ledger and the notifications, the second
    /// also Apple's signed word that s1 was upgraded.
    @Test(
        "Upgrade: no customer refund, only Apple's stated prorated share (DID_CHANGE_RENEWAL_PREF/UPGRADE, isUpgraded)",
        arguments: cases)
    func upgradedSubscription(_ c: Case) async throws {
        let header = NotificationImportTests.header
        let ledger =
            [
                header,
                NotificationImportTests.row(
                    "r1", "u1", "pro.monthly", "s1", at: Self.d18 + Self.hour, "4.00", status: c.status),
                NotificationImportTests.row(
                    "r2", "u1", "pro.yearly", "s2", at: Self.upgradedAt, "49.99", original: "s1"),
                // Another customer's monthly purchase on the upgrade day: that line is shown by the first report.
                NotificationImportTests.row(
                    "r3", "u3", "pro.monthly", "t3", at: Self.d18 + Self.day + 3 * Self.hour, "4.00"),
            ].joined(separator: "\n") + "\n"
        let deps = try config().dependencies(at: Self.asOf)
        _ = try await deps.importFiles(
            ImportRequest(
                transactions: [try dir.write("t.csv", ledger)],
                notifications: [
                    try dir.write("n.jsonl", try Self.webhookFile())
                ]))
        _ = try await config().dependencies(at: Self.asOf).report()
        let first = try dir.read("out/revenue_daily.csv")
        #expect(first.contains("2026-11-19,pro.monthly,USD,1,4.00,0.00,4.00,"), "\(first)")
        // The upgrade's new transaction is in the ledger: revenue on its day, not a missing record.
        #expect(first.contains("2026-11-19,pro.yearly,USD,1,49.99,0.00,49.99,"), "\(first)")
        #expect(try !dir.read("out/discrepancies.csv").contains("MISSING_RECORD"))

        // Apple's later signed transaction of s1, as the app uploaded it.
        var later = Self.monthly(signed: Self.upgradedAt + Self.hour)
        later.isUpgraded = c.isUpgraded ? true : nil
        if c.revoked {
            later.revocationDate = Self.upgradedAt
            later.revocationReason = 0
        }
        later.revocationType = c.revocationType
        later.revocationPercentage = c.revocationPercentage
        let jws = try JWSSigner.sign(payload: later, authority: try TestAuthorities.unwrap(TestAuthorities.standard))
        let receipt = #"{"receipt_id":"rc-s1","user_id":"u1","format":"signed-transaction","data":"\#(jws)"}"#
        let again = try config().dependencies(at: Self.asOf)
        _ = try await again.importFiles(ImportRequest(receipts: [try dir.write("r.jsonl", receipt + "\n")]))
        _ = try await again.verify()
        _ = try await config().dependencies(at: Self.asOf).report()

        let discrepancies = try dir.read("out/discrepancies.csv")
        #expect(discrepancies.contains("REFUNDED_DELIVERED,high,s1,") == c.refundedDelivered, "\(discrepancies)")
        #expect(!discrepancies.contains("DELIVERED_UNVERIFIED"), "\(discrepancies)")
        #expect(!discrepancies.contains("MISSING_RECORD"), "\(discrepancies)")
        let revenue = try dir.read("out/revenue_daily.csv")
        #expect(revenue.contains("2026-11-18,pro.monthly,USD,1,4.00,0.00,4.00,"), "\(revenue)")
        #expect(revenue.contains("2026-11-19,pro.yearly,USD,1,49.99,0.00,49.99,"), "\(revenue)")
        let changes = try dir.read("out/revenue_changes.csv")
        if let refund = c.refund {
            #expect(revenue.contains("2026-11-19,pro.monthly,USD,1,4.00,\(refund),2.00,"), "\(revenue)")
            let why = c.isUpgraded ? ": the prorated refund of a subscription upgrade" : ""
            #expect(
                changes.contains(
                    "2026-11-19,pro.monthly,USD,4.00,2.00,-2.00,s1,refund reported by the signed transaction "
                        + "rc-s1 (signature verified)\(why)\r\n"), "\(changes)")
        } else {
            #expect(revenue.contains("2026-11-19,pro.monthly,USD,1,4.00,0.00,4.00,"), "\(revenue)")
            #expect(changes == CSVReports.revenueChangesHeader.joined(separator: ",") + "\r\n", "\(changes)")
        }

        // Support sees the upgrade, and what Apple does and does not say about its refund.
        let store = try ReconStore(path: dir.file("s.sqlite"))
        let lookup = try Lookup.build(
            .originalTransaction("s1"), store: store, bundleIDs: [SignedNotifications.bundle])
        let upgrade = try #require(lookup.events.first { $0.text.contains("DID_CHANGE_RENEWAL_PREF/UPGRADE") })
        #expect(upgrade.text.contains("upgrade in effect now with transaction s2"))
        #expect(upgrade.text.contains("the amount is not in Apple's notification"))
        #expect(upgrade.time == "2026-11-19T01:00:00Z")
        if c.isUpgraded {
            #expect(lookup.answer.contains("1 upgraded to another subscription"), "\(lookup.answer)")
            #expect(!lookup.answer.contains("refunded"), "\(lookup.answer)")
            let event = try #require(lookup.events.first { $0.kind == "upgrade" })
            let share =
                c.revocationPercentage == nil ? "the amount is not in Apple's data" : "Apple states 50 % of its price"
            #expect(event.text.contains(share), "\(event.text)")
            #expect(!lookup.events.contains { $0.text.contains("Apple refunded transaction s1") })
        } else {
            #expect(lookup.answer.contains("1 refunded"), "\(lookup.answer)")
            #expect(!lookup.events.contains { $0.kind == "upgrade" })
        }
    }

    /// The upgrade's new transaction is a paid purchase: when the ledger never booked it, Apple's
    /// UPGRADE notification alone shows it (`MISSING_RECORD`), and the finding names that
    /// notification plainly.
    @Test func anUpgradeTheLedgerNeverBookedIsAMissingRecord() async throws {
        let ledger =
            [
                NotificationImportTests.header,
                NotificationImportTests.row("r1", "u1", "pro.monthly", "s1", at: Self.d18 + Self.hour, "4.00"),
            ].joined(separator: "\n") + "\n"
        _ = try await config().dependencies(at: Self.asOf).importFiles(
            ImportRequest(
                transactions: [try dir.write("t.csv", ledger)],
                notifications: [
                    try dir.write("n.jsonl", try Self.webhookFile())
                ]))
        _ = try await config().dependencies(at: Self.asOf).report()
        let discrepancies = try dir.read("out/discrepancies.csv")
        let line = try #require(discrepancies.split(separator: "\r\n").first { $0.hasPrefix("MISSING_RECORD,") })
        #expect(line.hasPrefix("MISSING_RECORD,critical,s2,s1,,pro.yearly,Production,49.99,USD,"), "\(line)")
        #expect(
            line.contains("according to Apple's App Store Server Notification of 2026-11-19 but the ledger"), "\(line)")
        #expect(!discrepancies.contains("REFUNDED_DELIVERED"))
    }

    /// A downgrade takes effect at the next renewal, and no subtype means the customer went back
    /// to the current subscription: neither charges or refunds anything now.
    @Test func aDowngradeOrItsCancellationChangesNothingNow() async throws {
        let ledger =
            [
                NotificationImportTests.header,
                NotificationImportTests.row("r1", "u1", "pro.monthly", "s1", at: Self.d18 + Self.hour, "4.00"),
            ].joined(separator: "\n") + "\n"
        let notifications = [
            try SignedNotifications.sign(
                "DID_CHANGE_RENEWAL_PREF", subtype: "DOWNGRADE", uuid: "00000000-0000-4000-8000-0000000000d1",
                signedDate: Self.d18 + Self.day, transaction: Self.monthly(signed: Self.d18 + Self.day),
                renewal: true),
            try SignedNotifications.sign(
                "DID_CHANGE_RENEWAL_PREF", uuid: "00000000-0000-4000-8000-0000000000d2",
                signedDate: Self.d18 + Self.day + Self.hour,
                transaction: Self.monthly(signed: Self.d18 + Self.day + Self.hour), renewal: true),
        ]
        _ = try await config().dependencies(at: Self.asOf).importFiles(
            ImportRequest(
                transactions: [try dir.write("t.csv", ledger)],
                notifications: [
                    try dir.write("n.jsonl", notifications.map { SignedNotifications.line($0) }.joined(separator: "\n"))
                ]))
        _ = try await config().dependencies(at: Self.asOf).report()
        let discrepancies = try dir.read("out/discrepancies.csv")
        #expect(!discrepancies.contains("REFUNDED_DELIVERED") && !discrepancies.contains("MISSING_RECORD"))
        #expect(try dir.read("out/revenue_daily.csv").contains("2026-11-18,pro.monthly,USD,1,4.00,0.00,4.00,"))
        let store = try ReconStore(path: dir.file("s.sqlite"))
        let lookup = try Lookup.build(.transaction("s1"), store: store, bundleIDs: [SignedNotifications.bundle])
        #expect(
            lookup.events.contains { $0.text.contains("downgrade from the next renewal date, nothing changes now") })
        #expect(lookup.events.contains { $0.text.contains("back to the current subscription") })
        #expect(!lookup.answer.contains("upgraded") && !lookup.answer.contains("refunded"), "\(lookup.answer)")
    }
}
