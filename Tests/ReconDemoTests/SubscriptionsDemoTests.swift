import Foundation
import IAPRecon
import IAPReconTestSupport
import Logging
import ReconDemo
import Testing

/// The demo's subscriptions: the backend's entitlements beside Apple's status as of the demo's as-of, one case each.
@Suite struct SubscriptionsDemoTests {
    let dir = TemporaryDirectory("demo-subscriptions")

    @Test func subscriptionsCSVListsEveryCaseWithApplesStatusAndItsFinding() async throws {
        var options = DemoRun.Options(outputDirectory: dir.path)
        options.seed = 7
        options.purchases = 60
        let outcome = try await DemoRun.run(options, logger: Logger.quiet)
        #expect(outcome.exitCode == 0, "\(outcome.lines)")
        #expect(
            outcome.lines.contains { $0.hasPrefix("subscription statuses: 7 asked, 7 recorded") }, "\(outcome.lines)")
        #expect(outcome.lines.contains { $0.contains("\(dir.path)/subscriptions.csv") })
        let text = try dir.read("subscriptions.csv")
        let rows = text.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.first?.joined(separator: ",") == CSVReports.subscriptionsHeader.joined(separator: ","))
        var byUser: [String: (status: String, grace: String, evidence: String, finding: String)] = [:]
        for row in rows.dropFirst() where row.count == CSVReports.subscriptionsHeader.count {
            byUser[String(row[0])] = (String(row[4]), String(row[6]), String(row[8]), String(row[9]))
        }
        let expected: [(user: String, status: String, finding: String)] = [
            ("user-sub-renewal-missed", "active", "PAID_NOT_ENTITLED"),
            ("user-sub-grace-cut", "billing-grace-period", "PAID_NOT_ENTITLED"),
            ("user-sub-expired-entitled", "expired", "ENTITLED_NOT_PAID"),
            ("user-sub-expiry-apart", "active", "ENTITLEMENT_EXPIRY_MISMATCH"),
            ("user-sub-billing-retry", "billing-retry", ""),
            ("user-sub-both-expired", "expired", ""),
            ("user-sub-clean", "active", ""),
        ]
        #expect(Set(byUser.keys) == Set(expected.map(\.user)), "\(text)")
        for item in expected {
            let line = try #require(byUser[item.user], "\(item.user)")
            #expect(line.status == item.status, "\(item.user)")
            #expect(line.evidence == "subscription-status", "\(item.user)")
            #expect(line.finding == item.finding, "\(item.user)")
            // Only the subscription in its grace period has a grace period's end.
            #expect(line.grace.isEmpty == (item.user != "user-sub-grace-cut"), "\(item.user)")
        }
        // The same findings are in discrepancies.csv, one each, on the subscription's original transaction.
        let discrepancies = try dir.read("discrepancies.csv")
        for item in expected where !item.finding.isEmpty {
            let hits = discrepancies.split(separator: "\r\n").filter {
                $0.hasPrefix(item.finding + ",") && $0.contains("," + item.user + ",")
            }
            #expect(hits.count == 1, "\(item.user)")
        }
    }
}
