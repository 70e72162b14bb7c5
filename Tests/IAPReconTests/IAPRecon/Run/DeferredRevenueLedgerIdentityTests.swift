import Foundation
import IAPReconTestSupport
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconModel

/// The roll-forward's identities (CONTRACT §5.1) on what a user gets: a generated ledger of 100,000 rows and Apple's
/// refund notifications imported into a store, reported at a month-end close and again once every sale's life is
/// over, and `deferred_revenue.csv` and `revenue_schedule.csv` read back.
///
/// Each month opens where the one before closed and foots; the roll-forward and the schedule agree per currency;
/// over a transaction's life, recognized − reversed = amount − refunded, and nothing stays deferred.
@Suite struct DeferredRevenueLedgerIdentityTests {
    let dir = TemporaryDirectory("deferred-identity")
    static let day: Int64 = 86_400_000
    static let first = Timestamp.parse("2025-01-01T00:00:00Z") ?? 0
    /// The close of November 2026 in Los Angeles.
    static let close = Timestamp.parse("2026-12-01T08:00:00Z") ?? 0
    /// Past every period (the last yearly plan bought before the close ends within a year of it), refund and
    /// reversal.
    static let lifeOver = Timestamp.parse("2028-01-01T00:00:00Z") ?? 0

    static let products = """
        product_id,type,price,currency,storefront,proceeds_rate,duration
        monthly,auto-renewable,9.99,USD,,0.70,P1M
        yearly,auto-renewable,59.99,USD,,0.85,P1Y
        week_pass,non-renewing,1.99,USD,,,P1W
        season,non-renewing,14.99,USD,,,P3M
        coins,consumable,0.99,USD,,,

        """

    /// Apple's product type of each product, as a signed transaction states it.
    static let appleTypes = [
        "monthly": "Auto-Renewable Subscription", "yearly": "Auto-Renewable Subscription",
        "week_pass": "Non-Renewing Subscription", "season": "Non-Renewing Subscription", "coins": "Consumable",
    ]

    /// One purchase of the generated ledger.
    struct Purchase {
        var id: String
        var original: String
        var user: String
        var product: String
        var at: Int64
        var price: Int64
        var currency: String
        var environment: String
    }

    /// Subscribers renewing monthly or yearly plans under one original transaction id, passes, coins; in three
    /// currencies (yen has no minor unit); one row in a hundred from Sandbox.
    static func purchases(rows: Int, seed: UInt64) -> [Purchase] {
        var random = SplitMix64(seed: seed)
        let prices = [("USD", Int64(10)), ("EUR", Int64(10)), ("JPY", Int64(1000))]
        let plans: [(String, Int64, Int)] = [
            ("monthly", 30 * day, 14), ("yearly", 365 * day, 2), ("week_pass", 7 * day, 1), ("season", 91 * day, 1),
            ("coins", 0, 1),
        ]
        var purchases: [Purchase] = []
        var next = 0
        while purchases.count < rows {
            let (product, period, renewals) = plans[Int(random.next() % UInt64(plans.count))]
            let (currency, step) = prices[Int(random.next() % 3)]
            let price = Int64(50 + random.next() % 6_000) * step
            let user = "u\(random.next() % 40_000)"
            let start = first + Int64(random.next() % UInt64(690 * day))
            let environment = random.next() % 100 == 0 ? "Sandbox" : "Production"
            let original = String(3_000_000_000 + next)
            for renewal in 0..<(1 + Int(random.next() % UInt64(renewals))) where purchases.count < rows {
                // The ledger holds what was bought by its export, before the close.
                let at = start + Int64(renewal) * period + Int64(random.next() % 3_600_000)
                guard at < close - day else { break }
                purchases.append(
                    Purchase(
                        id: String(3_000_000_000 + next), original: original, user: user, product: product, at: at,
                        price: price, currency: currency, environment: environment))
                next += 1
            }
        }
        return purchases
    }

    static func ledger(_ purchases: [Purchase]) -> String {
        var lines = [
            "record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,environment,"
                + "price,currency,storefront,verification_status,delivered_at,finished_at,receipt_id"
        ]
        for p in purchases {
            let price = Money(milliunits: p.price, currency: p.currency).formatted
            let at = Timestamp.iso(p.at)
            let done = Timestamp.iso(p.at + 2_000)
            lines.append(
                "r\(p.id),\(p.user),\(p.product),\(p.id),\(p.original),\(at),1,\(p.environment),\(price),"
                    + "\(p.currency),USA,verified,\(done),\(done),")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Apple's refunds of one Production purchase in 400: in full or prorated by `revocationPercentage`, dated within
    /// the purchase's first weeks; a third reversed five days later (`REFUND_REVERSED`).
    static func refundNotifications(_ purchases: [Purchase]) throws -> (lines: [String], refunded: Int) {
        var lines: [String] = []
        var refunded = 0
        for (index, p) in purchases.enumerated() where index % 400 == 7 && p.environment == "Production" {
            let revoked = p.at + Int64(index % 20) * day + 3_600_000
            func transaction(revoked: Int64?, signed: Int64) -> JWSTransactionDecodedPayload {
                var payload = SignedNotifications.transaction(
                    p.id, original: p.original, product: p.product, type: appleTypes[p.product] ?? "Consumable",
                    purchased: p.at, price: p.price, currency: p.currency, revoked: revoked,
                    revocationType: revoked == nil ? nil : (index % 3 == 0 ? "REFUND_PRORATED" : "REFUND_FULL"),
                    signedDate: signed)
                if revoked != nil, index % 3 == 0 { payload.revocationPercentage = Int32(10_000 + index % 80_000) }
                return payload
            }
            let uuid = String(format: "00000000-0000-4000-8000-%012d", index * 2)
            lines.append(
                SignedNotifications.line(
                    try SignedNotifications.sign(
                        "REFUND", uuid: uuid, signedDate: revoked,
                        transaction: transaction(revoked: revoked, signed: revoked))))
            refunded += 1
            if index % 3 == 1 {
                let reversed = revoked + 5 * day
                let uuid = String(format: "00000000-0000-4000-8000-%012d", index * 2 + 1)
                lines.append(
                    SignedNotifications.line(
                        try SignedNotifications.sign(
                            "REFUND_REVERSED", uuid: uuid, signedDate: reversed,
                            transaction: transaction(revoked: nil, signed: reversed))))
            }
        }
        return (lines, refunded)
    }

    /// A money cell as minor units of its currency ("12.34" → 1234, "1200" yen → 1200).
    static func minor(_ text: String) throws -> Int64 {
        try #require(Int64(text.replacingOccurrences(of: ".", with: "")), "not an amount: '\(text)'")
    }

    /// A CSV file's rows after its header, split on commas (these files quote nothing).
    func rows(_ path: String) throws -> [[String]] {
        try dir.read(path).components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
            .map { $0.components(separatedBy: ",") }
    }

    /// The store in ``dir``, trusting the test authority's notifications, reporting into `out` in Los Angeles time.
    func config(out: String) throws -> ReconConfig {
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file(out))
        config.bundleIDs = [SignedNotifications.bundle]
        config.trustedRoots = [try SignedNotifications.rootFile(in: dir.path)]
        config.timeZone = "America/Los_Angeles"
        config.recognitionBasis = .customerPrice
        return config
    }

    func report(asOf: Int64, out: String) async throws {
        var config = try config(out: out)
        config.asOf = asOf
        _ = try await config.dependencies(at: asOf).report()
    }

    @Test func aGeneratedLedgerOf100000RowsKeepsEveryIdentityAtTheCloseAndOverItsLife() async throws {
        let purchases = Self.purchases(rows: 100_000, seed: 35)
        let notifications = try Self.refundNotifications(purchases)
        #expect(notifications.refunded > 200)
        let outcome = try await config(out: "out").dependencies(at: Self.close).importFiles(
            ImportRequest(
                transactions: [try dir.write("t.csv", Self.ledger(purchases))],
                products: [try dir.write("p.csv", Self.products)],
                notifications: [try dir.write("n.jsonl", notifications.lines.joined(separator: "\n") + "\n")]))
        #expect(outcome.lines.contains { $0.contains("accepted 100000") }, "\(outcome.lines)")

        try await report(asOf: Self.close, out: "close")
        try checkIdentities(in: "close", lifeOver: false)
        // Once every life is over (an incremental report on the kept sales): nothing deferred, every sale's
        // recognized − reversed = amount − refunded.
        try await report(asOf: Self.lifeOver, out: "over")
        try checkIdentities(in: "over", lifeOver: true)
        let run = try JSONSerialization.jsonObject(with: Data(try dir.read("over/run.json").utf8)) as? [String: Any]
        let stages = run?["stages"] as? [[String: Any]] ?? []
        let detect = stages.first { $0["name"] as? String == "detect" }?["counts"] as? [String: Int]
        #expect(detect?["incremental"] == 1, "\(detect ?? [:])")
    }

    func checkIdentities(in folder: String, lifeOver: Bool) throws {
        let roll = try rows(folder + "/deferred_revenue.csv")
        var closing: [String: Int64] = [:]
        var lastMonth: [String: String] = [:]
        var billed: [String: Int64] = [:]
        var net: [String: Int64] = [:]
        var given: [String: Int64] = [:]
        for row in roll {
            let (month, line, currency) = (row[0], row[1] + " " + row[2], row[2])
            let (opening, billings, recognized, released, reversed, close, netRevenue) = (
                try Self.minor(row[3]), try Self.minor(row[4]), try Self.minor(row[5]), try Self.minor(row[6]),
                try Self.minor(row[7]), try Self.minor(row[8]), try Self.minor(row[9])
            )
            // Each month opens where the last reported one closed, and foots.
            #expect(opening == closing[line] ?? 0, "\(month) \(line)")
            #expect(opening + billings - recognized - released == close, "\(month) \(line)")
            #expect(netRevenue == recognized - reversed, "\(month) \(line)")
            closing[line] = close
            lastMonth[currency] = max(lastMonth[currency] ?? "", month)
            billed[currency, default: 0] += billings
            net[currency, default: 0] += netRevenue
            given[currency, default: 0] += released + reversed
        }
        var deferredAtEnd: [String: Int64] = [:]
        for (line, amount) in closing { deferredAtEnd[String(line.split(separator: " ")[1]), default: 0] += amount }

        var amount: [String: Int64] = [:]
        var recognized: [String: Int64] = [:]
        var refunded: [String: Int64] = [:]
        var deferred: [String: Int64] = [:]
        let schedule = try rows(folder + "/revenue_schedule.csv")
        for row in schedule {
            let currency = row[4]
            let (paid, net, back, left) = (
                try Self.minor(row[5]), try Self.minor(row[8]), try Self.minor(row[9]), try Self.minor(row[10])
            )
            // To date: amount = net recognized + refunded + deferred.
            #expect(paid == net + back + left, "\(row[0])")
            if lifeOver {
                #expect(left == 0, "\(row[0])")
                #expect(net == paid - back, "\(row[0])")
            }
            amount[currency, default: 0] += paid
            recognized[currency, default: 0] += net
            refunded[currency, default: 0] += back
            deferred[currency, default: 0] += left
        }
        // Not vacuous: subscriptions in every currency, refunds, and at the close revenue still deferred.
        #expect(Set(amount.keys) == ["EUR", "JPY", "USD"])
        #expect(schedule.count > 95_000)
        #expect(refunded.values.allSatisfy { $0 > 0 })
        #expect(lifeOver ? deferred.values.allSatisfy { $0 == 0 } : deferred.values.allSatisfy { $0 > 0 })
        // The roll-forward and the schedule agree per currency.
        #expect(billed == amount)
        #expect(net == recognized)
        #expect(given == refunded)
        #expect(deferredAtEnd.filter { $0.value != 0 } == deferred.filter { $0.value != 0 })
    }
}
