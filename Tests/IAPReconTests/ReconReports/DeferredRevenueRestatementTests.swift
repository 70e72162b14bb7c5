import Foundation
import IAPReconTestSupport
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconModel
@testable import ReconReports

/// A later night restates a closed month only for Apple's later word, and lists it (CONTRACT §5.1): a refund whose
/// `revocationDate` falls in November reaches the store after November's close
/// (https://developer.apple.com/documentation/appstoreserverapi/revocationdate).
@Suite struct DeferredRevenueRestatementTests {
    let dir = TemporaryDirectory("deferred-restated")
    static let day: Int64 = 86_400_000
    static let purchased = Timestamp.parse("2026-11-01T00:00:00Z") ?? 0
    static let monthEnd = Timestamp.parse("2026-12-01T00:00:00Z") ?? 0

    /// A monthly subscription, 12.00 USD, from 2026-11-01 to Apple's expiry on 2026-12-01.
    static func period(revoked: Int64? = nil, signedDate: Int64) -> JWSTransactionDecodedPayload {
        var payload = SignedNotifications.transaction(
            "4000000201", product: "monthly", type: "Auto-Renewable Subscription", purchased: purchased,
            price: 12_000, revoked: revoked, revocationType: revoked == nil ? nil : "REFUND_FULL",
            signedDate: signedDate)
        payload.expiresDate = monthEnd
        return payload
    }

    func config(asOf: Int64, out: String) throws -> ReconConfig {
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file(out))
        config.bundleIDs = [SignedNotifications.bundle]
        config.trustedRoots = [try SignedNotifications.rootFile(in: dir.path)]
        config.asOf = asOf
        config.recognitionBasis = .customerPrice
        return config
    }

    @Test func aRefundLearnedAfterTheCloseRestatesNovemberAndSaysSo() async throws {
        let subscribed = try SignedNotifications.sign(
            "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "00000000-0000-4000-8000-0000000002a1",
            signedDate: Self.purchased, transaction: Self.period(signedDate: Self.purchased), renewal: true)
        let ledger = """
            record_id,user_id,product_id,transaction_id,purchase_date,price,currency,storefront,verification_status,delivered_at
            r1,u1,monthly,4000000201,2026-11-01T00:00:00Z,12.00,USD,USA,verified,2026-11-01T00:00:01Z

            """
        let products = "product_id,type,price,currency\nmonthly,auto-renewable,12.00,USD\n"
        let close = try config(asOf: Self.monthEnd, out: "close")
        _ = try await close.dependencies(at: Self.monthEnd).importFiles(
            ImportRequest(
                transactions: [try dir.write("t.csv", ledger)], products: [try dir.write("p.csv", products)],
                notifications: [try dir.write("n1.jsonl", SignedNotifications.line(subscribed) + "\n")]))
        _ = try await close.dependencies(at: Self.monthEnd).report()
        #expect(
            try dir.read("close/deferred_revenue.csv").components(separatedBy: "\r\n").dropFirst().first
                == "2026-11,monthly,USD,0.00,12.00,12.00,0.00,0.00,0.00,12.00")

        // Apple refunded on 2026-11-21 (20 days of 30 delivered); the store learns it on 2026-12-03.
        let refundedAt = Timestamp.parse("2026-11-21T00:00:00Z") ?? 0
        let learned = Self.monthEnd + 2 * Self.day
        let refund = try SignedNotifications.sign(
            "REFUND", uuid: "00000000-0000-4000-8000-0000000002a2", signedDate: learned,
            transaction: Self.period(revoked: refundedAt, signedDate: learned), renewal: true)
        let later = try config(asOf: learned + Self.day, out: "later")
        _ = try await later.dependencies(at: learned + Self.day).importFiles(
            ImportRequest(notifications: [try dir.write("n2.jsonl", SignedNotifications.line(refund) + "\n")]))
        _ = try await later.dependencies(at: learned + Self.day).report()
        // 8.00 recognized by the refund is reversed, the 4.00 still deferred released, both in November.
        #expect(
            try dir.read("later/deferred_revenue.csv").components(separatedBy: "\r\n").dropFirst().first
                == "2026-11,monthly,USD,0.00,12.00,8.00,4.00,8.00,0.00,0.00")
        let run = try JSONSerialization.jsonObject(with: Data(try dir.read("later/run.json").utf8)) as? [String: Any]
        #expect(
            run?["deferred_revenue_restated"] as? [String] == [
                "2026-11 monthly USD: net revenue 12.00 → 0.00, closing deferred 0.00 → 0.00"
            ])
        let sheet = try XLSXArchive(path: dir.file("later/reconciliation.xlsx")).csv(sheet: 3)
        #expect(sheet.contains("Months restated since the previous report"))
        // The night after, November is as the last report showed it: nothing more to list.
        let next = try config(asOf: learned + 2 * Self.day, out: "next")
        _ = try await next.dependencies(at: learned + 2 * Self.day).report()
        #expect(!(try dir.read("next/run.json").contains("deferred_revenue_restated")))
    }
}
