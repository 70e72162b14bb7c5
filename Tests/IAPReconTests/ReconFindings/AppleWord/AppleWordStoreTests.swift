import AppStoreTestSigning
import Foundation
import IAPReconTestSupport
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconStorage

/// Apple's word as of 2026 in one store (CONTRACT §7): consumption requests answered, undelivered, decided, without
/// consent and late; unreported Production and Sandbox tokens; a rescinded consent linking two app accounts; an
/// unknown notification type; a 12-month commitment billed for four months of which the ledger has three.
@Suite struct AppleWordStoreTests {
    let dir = TemporaryDirectory("apple-word")
    static let day: Int64 = 86_400_000
    static let hour: Int64 = 3_600_000
    static let d18: Int64 = 1_795_478_400_000 - 6 * day  // 2026-11-18T00:00:00Z
    static let asOf = d18 + 3 * day  // 2026-11-21T00:00:00Z
    /// The commitment's first month.
    static let p0 = d18 - 95 * day
    static let month = 30 * day

    /// The store in `store` (an SQLite file in the folder when nil), the reports in `out`.
    func config(store: String? = nil, out: String = "out") throws -> ReconConfig {
        var config = ReconConfig.forTesting(
            databasePath: store ?? dir.file("s.sqlite"), outputDirectory: dir.file(out))
        config.bundleIDs = [SignedNotifications.bundle]
        config.trustedRoots = [try SignedNotifications.rootFile(in: dir.path)]
        config.asOf = Self.asOf
        return config
    }

    static func ledger() -> String {
        let d18 = d18
        let hour = hour
        func row(
            _ r: String, _ u: String, _ p: String, _ tx: String, _ t: Int64, _ price: String, delivered: Bool = true,
            original: String = ""
        ) -> String {
            let at = delivered ? "\(t)" : ""
            return "\(r),\(u),\(p),\(tx),\(original),\(t),\(price),USD,verified,\(at),\(at)"
        }
        return
            ([
                "record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,price,currency,"
                    + "verification_status,delivered_at,finished_at",
                row("r1", "u1", "coins", "c1", d18 + hour, "0.99"),
                row("r2", "u2", "coins", "c2", d18 + 2 * hour, "0.99", delivered: false),
                row("r3", "u3", "coins", "c3", d18 + 3 * hour, "0.99"),
                row("r4", "u4", "coins", "c4", d18 + 4 * hour, "0.99"),
                row("r5", "u5", "coins", "c5", d18 + 5 * hour, "0.99"),
                row("m1", "u6", "premium.yearly", "m1", p0, "9.99", original: "m1"),
                row("m2", "u6", "premium.yearly", "m2", p0 + month, "9.99", original: "m1"),
                row("m3", "u6", "premium.yearly", "m3", p0 + 2 * month, "9.99", original: "m1"),
            ] as [String]).joined(separator: "\n") + "\n"
    }

    static func notifications() throws -> [String] {
        typealias N = AppleWordNotifications
        let (d18, day, hour, asOf, p0, month) = (Self.d18, Self.day, Self.hour, Self.asOf, Self.p0, Self.month)
        func coin(_ id: String, at: Int64, signed: Int64, app: String? = nil) -> [String: Any] {
            N.transaction(id, product: "coins", purchased: at, price: 990, signedDate: signed, appTransactionID: app)
        }
        func request(_ n: Int, _ id: String, purchased: Int64, at time: Int64, app: String? = nil) throws -> String {
            try N.withData(
                "CONSUMPTION_REQUEST", uuid: "00000000-0000-4000-8000-00000000000\(n)", signedDate: time,
                transaction: coin(id, at: purchased, signed: time, app: app), reason: "UNINTENDED_PURCHASE")
        }
        var all = [
            try request(1, "c1", purchased: d18 + hour, at: asOf - 6 * hour, app: "app-7"),
            try request(2, "c2", purchased: d18 + 2 * hour, at: asOf - 2 * hour, app: "app-7"),
            try request(3, "c3", purchased: d18 + 3 * hour, at: d18 + 10 * hour),
            try request(4, "c4", purchased: d18 + 4 * hour, at: asOf - 3 * hour),
            try request(5, "c5", purchased: d18 + 5 * hour, at: d18 + 12 * hour),
            try N.withData(
                "REFUND_DECLINED", uuid: "00000000-0000-4000-8000-000000000006", signedDate: d18 + 20 * hour,
                transaction: coin("c3", at: d18 + 3 * hour, signed: d18 + 20 * hour)),
            try N.unreportedToken("ext-1", uuid: "00000000-0000-4000-8000-000000000007", signedDate: d18 + day),
            try N.unreportedToken(
                "SANDBOX_ext-2", uuid: "00000000-0000-4000-8000-000000000008", signedDate: d18 + day),
            try N.rescindConsent(
                appTransactionID: "app-7", uuid: "00000000-0000-4000-8000-000000000009", signedDate: d18 + 2 * day),
            try N.withData(
                "SOMETHING_APPLE_ADDS_IN_2027", subtype: "NEW_SUBTYPE", uuid: "00000000-0000-4000-8000-000000000010",
                signedDate: d18 + day, transaction: nil),
        ]
        let price: Int64 = 119_880
        let ends = p0 + 12 * month
        for period in 1...4 {
            let start = p0 + Int64(period - 1) * month
            let id = "m\(period)"
            all.append(
                try N.withData(
                    period == 1 ? "SUBSCRIBED" : "DID_RENEW", subtype: period == 1 ? "INITIAL_BUY" : nil,
                    uuid: "00000000-0000-4000-8000-0000000001\(period)0", signedDate: start,
                    transaction: N.transaction(
                        id, original: "m1", product: "premium.yearly", type: "Auto-Renewable Subscription",
                        purchased: start, expires: start + month, price: 9_990, signedDate: start,
                        commitment: (period, price, ends)),
                    renewal: N.renewal(
                        original: "m1", product: "premium.yearly", signedDate: start,
                        commitmentAutoRenew: period == 4 ? 0 : 1)))
        }
        return all
    }

    func importAll(store path: String? = nil) async throws {
        let products = try dir.write(
            "p.csv",
            "product_id,type,price,currency,duration,sample_content\ncoins,consumable,0.99,USD,,yes\n"
                + "premium.yearly,auto-renewable,119.88,USD,P1Y,no\n")
        let consents = try dir.write(
            "consents.csv",
            "user_id,consented_at,withdrawn_at\nu1,2026-01-01T00:00:00Z,\nu2,2026-01-01T00:00:00Z,\n"
                + "u3,2026-01-01T00:00:00Z,\nu4,2026-01-01T00:00:00Z,2026-06-01T00:00:00Z\nu5,2026-01-01T00:00:00Z,\n")
        let file = try dir.write(
            "n.jsonl", try Self.notifications().map { SignedNotifications.line($0) }.joined(separator: "\n") + "\n")
        let imported = try await config(store: path).dependencies(at: Self.asOf).importFiles(
            ImportRequest(
                transactions: [try dir.write("t.csv", Self.ledger())], products: [products], notifications: [file],
                consents: [consents]))
        #expect(imported.exitCode == 0, "\(imported.lines)")
        #expect(imported.lines.contains("notifications \(file): read 14, accepted 14, rejected 0"), "\(imported.lines)")
        // c1's request answered an hour after it came (as answer-consumption records Apple's 202).
        let store = try ReconStore(path: try config(store: path).databasePath)
        #expect(
            try store.appleWord.startConsumptionAnswer(
                ConsumptionAnswer(
                    notificationUUID: "00000000-0000-4000-8000-000000000001", transactionID: "c1", body: "{}",
                    sentAt: Self.asOf - 5 * Self.hour, answeredAt: nil, httpStatus: nil, failure: nil)))
        try store.appleWord.finishConsumptionAnswer(
            notificationUUID: "00000000-0000-4000-8000-000000000001", httpStatus: 202,
            answeredAt: Self.asOf - 5 * Self.hour, failure: nil)
    }

    func discrepancies() throws -> [[String]] {
        try dir.read("out/discrepancies.csv").split(separator: "\r\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
    }

    @Test func findingsAreExactlyTheOnesApplesWordCalls() async throws {
        try await importAll()
        _ = try await config().dependencies(at: Self.asOf).report()
        let rows = try discrepancies()
        func ids(_ code: String) -> [String] { rows.filter { $0[0] == code }.map { $0[2] }.sorted() }
        #expect(ids("CONSUMPTION_UNANSWERED") == ["c2", "c5"], "\(rows)")
        #expect(ids("EXTERNAL_PURCHASE_UNREPORTED") == ["SANDBOX_ext-2", "ext-1"], "\(rows)")
        let tokens = rows.filter { $0[0] == "EXTERNAL_PURCHASE_UNREPORTED" }
        #expect(tokens.first { $0[2] == "ext-1" }?[1] == "critical")
        #expect(tokens.first { $0[2] == "SANDBOX_ext-2" }?[1] == "low")
        let rescinded = try #require(rows.first { $0[0] == "CONSENT_RESCINDED" }, "\(rows)")
        #expect(rescinded[1] == "medium")
        #expect(rescinded[2] == "")
        #expect(rescinded[4] == "u1;u2")
        #expect(ids("MISSING_RECORD") == ["m4"], "\(rows)")
        let late = try #require(rows.first { $0[0] == "CONSUMPTION_UNANSWERED" && $0[2] == "c5" })
        #expect(late.joined(separator: ",").contains("has passed"))
        #expect(late[7] == "0.99")
        let codes = Set(rows.map { $0[0] })
        #expect(
            codes == [
                "CONSUMPTION_UNANSWERED", "EXTERNAL_PURCHASE_UNREPORTED", "CONSENT_RESCINDED", "MISSING_RECORD",
                "UNDELIVERED",
            ], "\(rows)")
    }

    @Test func consumptionRequestsAndCommitmentsAreWrittenAsTheContractSays() async throws {
        try await importAll()
        _ = try await config().dependencies(at: Self.asOf).report()
        let requests = try dir.read("out/consumption_requests.csv")
        let expected = [
            "notification_uuid,transaction_id,original_transaction_id,user_id,product_id,reason,requested_at,deadline,"
                + "consented,delivery_status,consumption_percentage,sample_content_provided,refund_preference,"
                + "answered_at,outcome",
            "00000000-0000-4000-8000-000000000003,c3,c3,u3,coins,UNINTENDED_PURCHASE,2026-11-18T10:00:00Z,"
                + "2026-11-18T22:00:00Z,yes,DELIVERED,,true,,,REFUND_DECLINED",
            "00000000-0000-4000-8000-000000000005,c5,c5,u5,coins,UNINTENDED_PURCHASE,2026-11-18T12:00:00Z,"
                + "2026-11-19T00:00:00Z,yes,DELIVERED,,true,,,",
            "00000000-0000-4000-8000-000000000001,c1,c1,u1,coins,UNINTENDED_PURCHASE,2026-11-20T18:00:00Z,"
                + "2026-11-21T06:00:00Z,yes,DELIVERED,,true,,2026-11-20T19:00:00Z,",
            "00000000-0000-4000-8000-000000000004,c4,c4,u4,coins,UNINTENDED_PURCHASE,2026-11-20T21:00:00Z,"
                + "2026-11-21T09:00:00Z,no,DELIVERED,,true,,,",
            "00000000-0000-4000-8000-000000000002,c2,c2,u2,coins,UNINTENDED_PURCHASE,2026-11-20T22:00:00Z,"
                + "2026-11-21T10:00:00Z,yes,UNDELIVERED_OTHER,,true,GRANT_FULL,,",
        ]
        #expect(requests == expected.joined(separator: "\r\n") + "\r\n", "\(requests)")
        let commitments = try dir.read("out/commitments.csv")
        let ends = Timestamp.iso(Self.p0 + 12 * Self.month)
        #expect(
            commitments
                == "original_transaction_id,user_id,product_id,currency,commitment_price,periods_total,"
                + "periods_billed,billed,refunded,unbilled,commitment_expires,status,renews_after\r\n"
                + "m1,u6,premium.yearly,USD,119.88,12,4,39.96,0.00,79.92,\(ends),active,off\r\n", "\(commitments)")
        let run = try dir.read("out/run.json")
        #expect(run.contains("\"SOMETHING_APPLE_ADDS_IN_2027\" : 1"), "\(run)")
        #expect(run.contains("\"CONSUMPTION_REQUEST\" : 5"), "\(run)")
        #expect(run.contains("\"EXTERNAL_PURCHASE_TOKEN\" : 2"), "\(run)")
    }

    @Test func lookupOfAnAppTransactionShowsEveryAccountItLinksAndTheCommitmentReadsAsAMonth() async throws {
        try await importAll()
        _ = try await config().dependencies(at: Self.asOf).report()
        let store = try ReconStore(path: dir.file("s.sqlite"), .readOnly)
        let linked = try Lookup.build(.appTransaction("app-7"), store: store, bundleIDs: [SignedNotifications.bundle])
        #expect(linked.subject == "app transaction app-7")
        #expect(Set(linked.events.compactMap(\.userID)).isSuperset(of: ["u1", "u2"]), "\(linked.events)")
        #expect(linked.findings.contains { $0.code == "CONSENT_RESCINDED" }, "\(linked.findings)")
        #expect(linked.findings.contains { $0.code == "CONSUMPTION_UNANSWERED" && $0.transactionID == "c2" })
        let recognition = LookupRecognition(asOf: Self.asOf, timeZone: .gmt, catalog: try store.ledger.catalog())
        // A user's lookup shows the parent's withdrawal of consent and its finding.
        let user = try Lookup.build(
            .user("u2"), store: store, bundleIDs: [SignedNotifications.bundle], recognition: recognition)
        #expect(
            user.events.contains { $0.text.contains("RESCIND_CONSENT") && $0.text.contains("app-7") }, "\(user.events)")
        #expect(user.findings.contains { $0.code == "CONSENT_RESCINDED" }, "\(user.findings)")
        let subscription = try Lookup.build(
            .originalTransaction("m1"), store: store, bundleIDs: [SignedNotifications.bundle],
            recognition: recognition)
        let commitment = try #require(subscription.events.first { $0.kind == "commitment" }, "\(subscription.events)")
        let ends = Lookup.monthAndYear(Self.p0 + 12 * Self.month - 1)
        #expect(
            commitment.text.contains("month 4 of 12, renews monthly, will not renew after \(ends)"), "\(commitment)")
    }
}
