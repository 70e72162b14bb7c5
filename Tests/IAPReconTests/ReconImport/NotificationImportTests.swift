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

/// `import --notifications`: App Store Server Notifications V2 as the webhook stored them,
/// verified, kept once, and acted on by detection, revenue and lookup.
@Suite struct NotificationImportTests {
    let dir = TemporaryDirectory("notifications")
    let logger = Logger.quiet
    static let day: Int64 = 86_400_000
    static let hour: Int64 = 3_600_000
    static let d18: Int64 = 1_795_478_400_000 - 6 * day  // 2026-11-18T00:00:00Z
    static let asOf = d18 + 3 * day

    func config() throws -> ReconConfig {
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        config.bundleIDs = [SignedNotifications.bundle]
        config.trustedRoots = [try SignedNotifications.rootFile(in: dir.path)]
        config.asOf = Self.asOf
        return config
    }

    func importFiles(_ request: ImportRequest) async throws -> CommandOutput {
        try await config().dependencies(at: Self.asOf).importFiles(request)
    }

    func report() async throws -> CommandOutput {
        try await config().dependencies(at: Self.asOf).report()
    }

    static let header =
        "record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,price,currency,"
        + "verification_status,delivered_at,finished_at"

    static func row(
        _ record: String, _ user: String, _ product: String, _ tx: String, at time: Int64, _ price: String,
        status: String = "verified", original: String = ""
    ) -> String {
        "\(record),\(user),\(product),\(tx),\(original),\(time),\(price),USD,\(status),\(time),\(time)"
    }

    // MARK: - Every type acted on

    /// One store, one notification file with every type acted on, one report.
    @Test func everyTypeActedOnReachesFindingsRevenueAndLookup() async throws {
        let d18 = Self.d18
        let day = Self.day
        let hour = Self.hour
        let ledger =
            [
                Self.header,
                Self.row("r1", "u1", "coins", "n1", at: d18 + hour, "0.99"),
                Self.row("r2", "u2", "coins", "n2", at: d18 + 2 * hour, "0.99"),
                Self.row("r3", "u3", "premium", "n3", at: d18 + 3 * hour, "9.99", status: "invalid"),
                Self.row("r4", "u4", "family.pack", "n4", at: d18 + 4 * hour, "2.99"),
                Self.row("r6", "u6", "pro.monthly", "s1", at: d18 + 5 * hour, "4.99", original: "s1"),
            ].joined(separator: "\n") + "\n"
        func tx(
            _ id: String, _ product: String, _ price: Int64, at time: Int64, signed: Int64,
            revoked: Int64? = nil, type: String = "Consumable", revocationType: String? = nil,
            original: String? = nil, ownership: String = "PURCHASED"
        ) -> JWSTransactionDecodedPayload {
            SignedNotifications.transaction(
                id, original: original, product: product, type: type, purchased: time, price: price,
                revoked: revoked, revocationType: revocationType, signedDate: signed, ownership: ownership)
        }
        let subscription = "Auto-Renewable Subscription"
        let notifications: [String] = [
            // Apple asks for consumption data before deciding a refund; then refunds.
            try SignedNotifications.sign(
                "CONSUMPTION_REQUEST", uuid: "00000000-0000-4000-8000-000000000001", signedDate: d18 + 12 * hour,
                transaction: tx("n1", "coins", 990, at: d18 + hour, signed: d18 + 12 * hour)),
            try SignedNotifications.sign(
                "REFUND", uuid: "00000000-0000-4000-8000-000000000002", signedDate: d18 + day,
                transaction: tx(
                    "n1", "coins", 990, at: d18 + hour, signed: d18 + day, revoked: d18 + day,
                    revocationType: "REFUND_FULL")),
            // A refund Apple later reversed.
            try SignedNotifications.sign(
                "REFUND", uuid: "00000000-0000-4000-8000-000000000003", signedDate: d18 + day,
                transaction: tx(
                    "n2", "coins", 990, at: d18 + 2 * hour, signed: d18 + day, revoked: d18 + day,
                    revocationType: "REFUND_FULL")),
            try SignedNotifications.sign(
                "REFUND_REVERSED", uuid: "00000000-0000-4000-8000-000000000004", signedDate: d18 + 2 * day,
                transaction: tx("n2", "coins", 990, at: d18 + 2 * hour, signed: d18 + 2 * day)),
            // Refunded, and the backend marked the row invalid: a correctly handled refund.
            try SignedNotifications.sign(
                "REFUND", uuid: "00000000-0000-4000-8000-000000000005", signedDate: d18 + day,
                transaction: tx(
                    "n3", "premium", 9_990, at: d18 + 3 * hour, signed: d18 + day,
                    revoked: d18 + day, type: "Non-Consumable", revocationType: "REFUND_FULL")),
            // A family member loses access: not a customer refund.
            try SignedNotifications.sign(
                "REVOKE", uuid: "00000000-0000-4000-8000-000000000006", signedDate: d18 + day,
                transaction: tx(
                    "n4", "family.pack", 2_990, at: d18 + 4 * hour, signed: d18 + day,
                    revoked: d18 + day, type: "Non-Consumable", revocationType: "FAMILY_REVOKE",
                    ownership: "FAMILY_SHARED")),
            // A one-time charge and a renewal the ledger never booked.
            try SignedNotifications.sign(
                "ONE_TIME_CHARGE", uuid: "00000000-0000-4000-8000-000000000007", signedDate: d18 + 6 * hour,
                transaction: tx("n5", "coins", 990, at: d18 + 6 * hour, signed: d18 + 6 * hour)),
            try SignedNotifications.sign(
                "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "00000000-0000-4000-8000-000000000008",
                signedDate: d18 + 5 * hour,
                transaction: tx(
                    "s1", "pro.monthly", 4_990, at: d18 + 5 * hour, signed: d18 + 5 * hour,
                    type: subscription, original: "s1"), renewal: true),
            try SignedNotifications.sign(
                "DID_RENEW", uuid: "00000000-0000-4000-8000-000000000009", signedDate: d18 + 2 * day,
                transaction: tx(
                    "s2", "pro.monthly", 4_990, at: d18 + 2 * day, signed: d18 + 2 * day,
                    type: subscription, original: "s1"), renewal: true),
            try SignedNotifications.sign(
                "DID_CHANGE_RENEWAL_PREF", subtype: "DOWNGRADE", uuid: "00000000-0000-4000-8000-000000000010",
                signedDate: d18 + 2 * day + hour,
                transaction: tx(
                    "s2", "pro.monthly", 4_990, at: d18 + 2 * day, signed: d18 + 2 * day + hour,
                    type: subscription, original: "s1"), renewal: true),
            try SignedNotifications.sign(
                "EXPIRED", subtype: "VOLUNTARY", uuid: "00000000-0000-4000-8000-000000000011",
                signedDate: d18 + 2 * day + 2 * hour,
                transaction: tx(
                    "s2", "pro.monthly", 4_990, at: d18 + 2 * day, signed: d18 + 2 * day + 2 * hour,
                    type: subscription, original: "s1"), renewal: true),
        ]
        let file = try dir.write(
            "n.jsonl",
            notifications.map { SignedNotifications.line($0, receivedAt: "2026-11-20T10:00:00Z") }
                .joined(separator: "\n") + "\n")
        let imported = try await importFiles(
            ImportRequest(transactions: [try dir.write("t.csv", ledger)], notifications: [file]))
        #expect(imported.exitCode == 0)
        #expect(imported.lines.contains("notifications \(file): read 11, accepted 11, rejected 0"), "\(imported.lines)")

        _ = try await report()
        let discrepancies = try dir.read("out/discrepancies.csv")
        let lines = discrepancies.split(separator: "\r\n").map(String.init)
        func findings(_ code: String) -> [String] {
            lines.filter { $0.hasPrefix(code + ",") }.map { $0.split(separator: ",").map(String.init)[2] }
        }
        // Apple's latest word is "refunded" and the ledger still counts it.
        #expect(findings("REFUNDED_DELIVERED") == ["n1"], "\(discrepancies)")
        // Reversed, family revoke, refunded-and-marked-invalid: none is a finding.
        #expect(findings("DELIVERED_UNVERIFIED").isEmpty, "\(discrepancies)")
        // The charges only Apple's notifications show.
        #expect(findings("MISSING_RECORD").sorted() == ["n5", "s2"], "\(discrepancies)")

        let revenue = try dir.read("out/revenue_daily.csv")
        // n1, n2 and the invalid-but-refunded n3 keep their purchase day; refunds land on the refund day, n2's too
        // (Apple reversed it later: the reversal is booked on the day of the reversal, as Apple's books keep it).
        #expect(revenue.contains("2026-11-18,coins,USD,2,1.98,0.00,1.98,"), "\(revenue)")
        #expect(revenue.contains("2026-11-18,premium,USD,1,9.99,0.00,9.99,"), "\(revenue)")
        #expect(revenue.contains("2026-11-19,coins,USD,0,0.00,1.98,-1.98,"), "\(revenue)")
        #expect(revenue.contains("2026-11-20,coins,USD,0,0.00,-0.99,0.99,"), "\(revenue)")
        #expect(revenue.contains("2026-11-19,premium,USD,0,0.00,9.99,-9.99,"), "\(revenue)")

        // Lookup: the notifications on the timeline, and "was this refunded?".
        let store = try ReconStore(path: dir.file("s.sqlite"))
        let refunded = try Lookup.build(.transaction("n1"), store: store, bundleIDs: [SignedNotifications.bundle])
        #expect(refunded.refunded == 1)
        #expect(
            refunded.events.contains { $0.kind == "notification" && $0.text.contains("Apple notification REFUND ") })
        #expect(refunded.events.contains { $0.text.contains("CONSUMPTION_REQUEST") })
        let reversed = try Lookup.build(.transaction("n2"), store: store, bundleIDs: [SignedNotifications.bundle])
        #expect(reversed.refunded == 0)
        #expect(
            reversed.events.contains { $0.text.contains("REFUND_REVERSED") && $0.text.contains("2026-11-20T00:00:00Z") }
        )
        let renewals = try Lookup.build(
            .originalTransaction("s1"), store: store, bundleIDs: [SignedNotifications.bundle])
        #expect(renewals.events.contains { $0.text.contains("SUBSCRIBED/INITIAL_BUY") })
        #expect(renewals.events.contains { $0.text.contains("EXPIRED/VOLUNTARY") })
    }

    // MARK: - Bad input and duplicates

    @Test func forgedForeignAndMalformedLinesAreRejectedRowsAndDuplicatesAreKeptOnce() async throws {
        let signed = Self.d18 + Self.day
        let refund = try SignedNotifications.sign(
            "REFUND", uuid: "00000000-0000-4000-8000-0000000000a1", signedDate: signed,
            transaction: SignedNotifications.transaction(
                "n1", purchased: Self.d18, revoked: signed, revocationType: "REFUND_FULL", signedDate: signed))
        let forged = try SignedNotifications.sign(
            "REFUND", uuid: "00000000-0000-4000-8000-0000000000a2", signedDate: signed,
            transaction: SignedNotifications.transaction("n2", purchased: Self.d18, signedDate: signed),
            authority: TestAuthorities.stranger)
        let foreign = try SignedNotifications.sign(
            "ONE_TIME_CHARGE", uuid: "00000000-0000-4000-8000-0000000000a3", signedDate: signed,
            transaction: SignedNotifications.transaction(
                "n3", purchased: Self.d18, signedDate: signed, bundle: "com.other.app"),
            bundle: "com.other.app")
        let sandboxInside = try SignedNotifications.sign(
            "ONE_TIME_CHARGE", uuid: "00000000-0000-4000-8000-0000000000a4", signedDate: signed,
            transaction: SignedNotifications.transaction(
                "n4", purchased: Self.d18, environment: "Sandbox", signedDate: signed))
        let text =
            [
                SignedNotifications.line(refund),
                SignedNotifications.line(refund),  // Apple retried the webhook
                SignedNotifications.line(forged),
                SignedNotifications.line(foreign),
                SignedNotifications.line(sandboxInside),
                "{\"signedPayload\": 42}",
                "not json at all",
                SignedNotifications.line(refund, receivedAt: "yesterday"),
            ].joined(separator: "\n") + "\n"
        let file = try dir.write("n.jsonl", text)
        let outcome = try await importFiles(ImportRequest(notifications: [file]))
        #expect(outcome.lines.contains("notifications \(file): read 8, accepted 2, rejected 6"), "\(outcome.lines)")
        let store = try ReconStore(path: dir.file("s.sqlite"))
        #expect(try store.notifications.notificationCount() == 1)
        let rejected = try store.ledger.rejectedRows().filter { $0.source == file }
        #expect(rejected.map(\.line) == [3, 4, 5, 6, 7, 8])
        #expect(rejected.allSatisfy { $0.kind == .notifications })
        #expect(rejected[0].reason.contains("untrusted certificate chain"), "\(rejected[0].reason)")
        #expect(rejected[1].reason.contains("bundle id 'com.other.app'"), "\(rejected[1].reason)")
        #expect(rejected[2].reason == "signedTransactionInfo is for Sandbox, the notification for Production")
        #expect(rejected[3].reason.contains("signedPayload"))
        #expect(rejected[4].reason == "bad JSON")
        #expect(rejected[5].reason.contains("received_at"))

        // Importing the same file again duplicates nothing and keeps the same rejections.
        let again = try await importFiles(ImportRequest(notifications: [file]))
        #expect(again.lines.contains("notifications \(file): read 8, accepted 2, rejected 6"))
        #expect(try store.notifications.notificationCount() == 1)
        #expect(try store.ledger.rejectedRows().filter { $0.source == file }.count == 6)
        #expect(try store.receipts.verificationCount(source: .notification) == 1)
    }

    /// A signature that does not match its payload (the chain is trusted) and a forged signed
    /// transaction inside a genuine notification are rejected rows, each with its reason.
    @Test func aBadSignatureOrAForgedSignedTransactionInsideIsARejectedRow() async throws {
        let signed = Self.d18 + Self.day
        func refund(_ uuid: String, _ id: String) throws -> String {
            try SignedNotifications.sign(
                "REFUND", uuid: uuid, signedDate: signed,
                transaction: SignedNotifications.transaction(
                    id, purchased: Self.d18, revoked: signed, revocationType: "REFUND_FULL", signedDate: signed))
        }
        // Notification A's header and payload under notification B's signature.
        let a = try refund("00000000-0000-4000-8000-0000000000e1", "n1").split(separator: ".")
        let b = try refund("00000000-0000-4000-8000-0000000000e2", "n2").split(separator: ".")
        let badSignature = [a[0], a[1], b[2]].joined(separator: ".")
        // A genuine notification whose signedTransactionInfo was signed by someone else.
        let stranger = try TestAuthorities.unwrap(TestAuthorities.stranger)
        let inner = try JWSSigner.sign(
            payload: SignedNotifications.transaction(
                "n3", purchased: Self.d18, revoked: signed, revocationType: "REFUND_FULL", signedDate: signed),
            authority: stranger)
        let outer = NotificationBody(
            notificationType: "REFUND", notificationUUID: "00000000-0000-4000-8000-0000000000e3",
            data: NotificationBody.Payload(
                appAppleId: 1_234, bundleId: SignedNotifications.bundle, environment: "Production",
                signedTransactionInfo: inner),
            signedDate: signed)
        let forgedInside = try outer.signed(by: try TestAuthorities.unwrap(TestAuthorities.standard))
        let file = try dir.write(
            "n.jsonl", [badSignature, forgedInside].map { SignedNotifications.line($0) }.joined(separator: "\n") + "\n")
        let outcome = try await importFiles(ImportRequest(notifications: [file]))
        #expect(outcome.lines.contains("notifications \(file): read 2, accepted 0, rejected 2"), "\(outcome.lines)")
        let rejected = try ReconStore(path: dir.file("s.sqlite")).ledger.rejectedRows().filter { $0.source == file }
        #expect(rejected.map(\.line) == [1, 2])
        #expect(rejected.first?.reason == "notification: JWS signature does not verify")
        #expect(rejected.last?.reason.hasPrefix("signedTransactionInfo: untrusted certificate chain") == true)
        #expect(try ReconStore(path: dir.file("s.sqlite")).notifications.notificationCount() == 0)
    }

    /// Apple's own vector: `mock_signed_data/testNotification`, signed by Apple's test CA.
    @Test func applesTestNotificationVectorIsKeptOnce() async throws {
        let vector = try ReceiptFixtures.mock("testNotification")
        let file = try dir.write("apple.jsonl", SignedNotifications.line(vector) + "\n")
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        config.bundleIDs = ["com.example"]
        config.trustedRoots = [try ReceiptFixtures.url("apple-server-library/certs/testCA.der").path]
        for _ in 0..<2 {
            let outcome = try await config.dependencies(at: Self.asOf).importFiles(ImportRequest(notifications: [file]))
            #expect(outcome.lines.contains("notifications \(file): read 1, accepted 1, rejected 0"), "\(outcome.lines)")
        }
        let store = try ReconStore(path: dir.file("s.sqlite"))
        #expect(try store.notifications.notificationCount() == 1)
        // Under Apple's real roots the test CA's chain is refused.
        config.trustedRoots = []
        config.databasePath = dir.file("other.sqlite")
        let refused = try await config.dependencies(at: Self.asOf).importFiles(ImportRequest(notifications: [file]))
        #expect(refused.lines.contains("notifications \(file): read 1, accepted 0, rejected 1"))
    }

    // MARK: - Revenue never changes silently

    /// `revenue_changes.csv` across reports of one store: a late import, a refund, a reversal.
    @Test func revenueChangesAcrossReportsOfOneStore() async throws {
        let d18 = Self.d18
        let day = Self.day
        let hour = Self.hour
        let first =
            [
                Self.header,
                Self.row("r1", "u1", "coins", "n1", at: d18 + hour, "0.99"),
                Self.row("r7", "u7", "coins", "n7", at: d18 + day + hour, "0.99"),
            ].joined(separator: "\n") + "\n"
        _ = try await importFiles(ImportRequest(transactions: [try dir.write("t1.csv", first)]))
        _ = try await report()
        let header = "date,product_id,currency,previous_net,current_net,difference,transaction_ids,reason\r\n"
        #expect(try dir.read("out/revenue_changes.csv") == header)

        // Nothing new: nothing changed.
        _ = try await report()
        #expect(try dir.read("out/revenue_changes.csv") == header)

        // A late row on a day already shown, a refund on a day already shown, a sale on a new day.
        let refundAt = d18 + day + 5 * hour
        let refund = try SignedNotifications.sign(
            "REFUND", uuid: "00000000-0000-4000-8000-0000000000b1", signedDate: refundAt,
            transaction: SignedNotifications.transaction(
                "n1", purchased: d18 + hour, revoked: refundAt, revocationType: "REFUND_FULL", signedDate: refundAt))
        let second =
            [
                Self.header,
                Self.row("r8", "u8", "coins", "n8", at: d18 + 5 * hour, "0.99"),
                Self.row("r9", "u9", "coins", "n9", at: d18 + 2 * day + hour, "0.99"),
            ].joined(separator: "\n") + "\n"
        _ = try await importFiles(
            ImportRequest(
                transactions: [try dir.write("t2.csv", second)],
                notifications: [try dir.write("n1.jsonl", SignedNotifications.line(refund) + "\n")]))
        _ = try await report()
        #expect(
            try dir.read("out/revenue_changes.csv")
                == header
                + "2026-11-18,coins,USD,0.99,1.98,0.99,n8,late import: a purchase on a day already reported\r\n"
                + "2026-11-19,coins,USD,0.99,0.00,-0.99,n1,"
                + "refund reported by Apple's App Store Server Notification of 2026-11-19\r\n")
        let workbook = XLSXArchive(path: dir.file("out/reconciliation.xlsx"))
        #expect(
            try workbook.csv(sheet: 1).contains(
                "refund reported by Apple's App Store Server Notification of 2026-11-19"))

        // Apple reverses the refund: the refund stays on its day, and the day of the reversal gets the net back.
        let reversal = try SignedNotifications.sign(
            "REFUND_REVERSED", uuid: "00000000-0000-4000-8000-0000000000b2", signedDate: refundAt + day,
            transaction: SignedNotifications.transaction("n1", purchased: d18 + hour, signedDate: refundAt + day))
        _ = try await importFiles(
            ImportRequest(notifications: [try dir.write("n2.jsonl", SignedNotifications.line(reversal) + "\n")]))
        _ = try await report()
        let changes = try dir.read("out/revenue_changes.csv")
        #expect(
            changes == header + "2026-11-20,coins,USD,0.99,1.98,0.99,n1,"
                + "refund reversed by Apple (Apple's App Store Server Notification of 2026-11-20)\r\n", "\(changes)")
    }
}
