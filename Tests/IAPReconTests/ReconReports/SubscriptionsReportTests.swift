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

/// `subscriptions.csv` and the `Subscriptions` sheet (CONTRACT §5), decided here by Apple's stored signed
/// transactions (no status answer: no credentials in this run).
@Suite struct SubscriptionsReportTests {
    let dir = TemporaryDirectory("subscriptions-report")
    static let day: Int64 = 86_400_000
    static let t0: Int64 = 1_795_000_000_000  // 2026-11-18T11:06:40Z

    /// Apple renewed subscription 4000000101 on t0 − 5 days for 30 days; the backend ended u1's access on t0 − 3 days.
    ///
    /// Apple never spoke of u2's subscription 4000000201.
    func report() async throws -> (CommandOutput, XLSXArchive) {
        let (t0, day) = (Self.t0, Self.day)
        var renewal = SignedNotifications.transaction(
            "4000000102", original: "4000000101", product: "monthly", type: "Auto-Renewable Subscription",
            purchased: t0 - 5 * day, price: 2_990, signedDate: t0 - 5 * day)
        renewal.expiresDate = t0 + 25 * day
        let line = SignedNotifications.line(
            try SignedNotifications.sign(
                "DID_RENEW", uuid: "n1", signedDate: t0 - 5 * day, transaction: renewal, renewal: true))
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        config.bundleIDs = [SignedNotifications.bundle]
        config.trustedRoots = [try SignedNotifications.rootFile(in: dir.path)]
        config.asOf = t0
        let entitlements = try dir.write(
            "e.csv",
            """
            user_id,original_transaction_id,product_id,expires_at
            u1,4000000101,monthly,\(t0 - 3 * day)
            u2,4000000201,monthly,\(t0 + 20 * day)

            """)
        _ = try await config.dependencies(at: t0 - day).importFiles(
            ImportRequest(
                products: [try dir.write("p.csv", "product_id,type,price,currency\nmonthly,auto-renewable,2.99,USD\n")],
                notifications: [try dir.write("n.jsonl", line + "\n")], entitlements: [entitlements]))
        let outcome = try await config.dependencies(at: t0).report()
        return (outcome, XLSXArchive(path: dir.file("out/reconciliation.xlsx")))
    }

    @Test func aRenewalTheBackendMissedIsAPayingCustomerWithoutAccess() async throws {
        let (_, workbook) = try await report()
        #expect(
            try dir.read("out/subscriptions.csv") == """
                user_id,original_transaction_id,product_id,backend_expires_at,apple_status,apple_expires_at,apple_grace_expires_at,auto_renew,evidence,finding\r
                u1,4000000101,monthly,2026-11-15T11:06:40Z,active,2026-12-13T11:06:40Z,,,Apple's App Store Server Notification of 2026-11-13,PAID_NOT_ENTITLED\r
                u2,4000000201,monthly,2026-12-08T11:06:40Z,,,,,no evidence of Apple's: not judged,\r

                """)
        let findings = try dir.read("out/discrepancies.csv")
        #expect(findings.contains("PAID_NOT_ENTITLED,critical,4000000101,4000000101,u1,monthly,Production,2.99,USD"))
        #expect(!findings.contains("4000000201"))
        let names = try workbook.entry("xl/workbook.xml").matches(of: #/<sheet name="([^"]+)"/#).map {
            String($0.output.1)
        }
        #expect(names.contains("Subscriptions"))
    }
}
