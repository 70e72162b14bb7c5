import Foundation
import IAPReconTestSupport
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel

/// Support sees how far a subscription's revenue is recognized (CONTRACT §5.1): its period as Apple's signed
/// transaction states it (`expiresDate`, https://developer.apple.com/documentation/appstoreserverapi/expiresdate), and
/// what of what the customer paid is recognized, refunded and still deferred.
@Suite struct LookupRecognitionTests {
    let dir = TemporaryDirectory("lookup-recognition")
    static let day: Int64 = 86_400_000
    static let t0: Int64 = 1_795_000_000_000  // 2026-11-18T11:06:40Z

    /// A monthly subscription bought ten days before `t0` (2.99 USD), booked in the ledger, with Apple's SUBSCRIBED
    /// notification; and a consumable, which gets no line.
    func makeStore() async throws -> ReconConfig {
        let start = Self.t0 - 10 * Self.day
        var payload = SignedNotifications.transaction(
            "4000000101", product: "monthly", type: "Auto-Renewable Subscription", purchased: start, price: 2_990,
            signedDate: start)
        payload.expiresDate = start + 30 * Self.day
        let notification = try SignedNotifications.sign(
            "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "00000000-0000-4000-8000-0000000001a1", signedDate: start,
            transaction: payload, renewal: true)
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        config.bundleIDs = [SignedNotifications.bundle]
        config.trustedRoots = [try SignedNotifications.rootFile(in: dir.path)]
        config.asOf = Self.t0
        let ledger = """
            record_id,user_id,product_id,transaction_id,purchase_date,price,currency,storefront,verification_status,delivered_at
            r1,u1,monthly,4000000101,\(start),2.99,USD,USA,verified,\(start + 1_000)
            r2,u1,coins,4000000102,\(start),0.99,USD,USA,verified,\(start + 1_000)

            """
        let products = "product_id,type,price,currency\nmonthly,auto-renewable,2.99,USD\ncoins,consumable,0.99,USD\n"
        _ = try await config.dependencies(at: Self.t0).importFiles(
            ImportRequest(
                transactions: [try dir.write("t.csv", ledger)], products: [try dir.write("p.csv", products)],
                notifications: [try dir.write("n.jsonl", SignedNotifications.line(notification) + "\n")]))
        return config
    }

    @Test func aSubscriptionShowsWhatIsRecognizedAndWhatIsDeferred() async throws {
        let config = try await makeStore()
        let report = try await config.dependencies(at: Self.t0).answer(.user("u1")).report
        let revenue = report.events.filter { $0.kind == "revenue" }
        // Ten days of thirty: 2.99 × 10 / 30 = 0.996… → 1.00 recognized, 1.99 deferred.
        #expect(
            revenue.map(\.text) == [
                "transaction 4000000101 (monthly): 2.99 USD paid for 2026-11-08T11:06:40Z to 2026-12-08T11:06:40Z "
                    + "(Apple's expiry); recognized 1.00, deferred 1.99, refunded 0.00 USD (customer price)"
            ])
        #expect(revenue.first?.time == "2026-11-18T11:06:40Z")
        #expect(report.text().contains("recognized 1.00, deferred 1.99"))
    }
}
