import AppStoreSimulator
import Foundation
import IAPReconTestSupport
import Logging
import ReconDemo
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

/// `verify` end to end: the real clients against the simulator on 127.0.0.1, on the demo's
/// generated store (every receipt format, rows without receipts, orphan receipts).
@Suite struct VerifyAgainstSimulatorTests {
    let dir = TemporaryDirectory("verify-e2e")
    let logger = Logger.quiet

    func prepare(faults: [FaultRule] = []) async throws -> (DemoDataset, AppStoreSimulator, ReconConfig) {
        let dataset = try DemoDataset.generate(seed: 7, purchases: 60)
        let (simulator, simulatorConfig) = try await DemoRun.startSimulator(
            for: dataset, databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"),
            inputDirectory: dir.path,
            extraFaults: faults)
        var config = simulatorConfig
        config.salesReportTimeZone = DemoDataset.salesReportTimeZone
        let finance = try dataset.writeFinancialReports(into: dir.path)
        _ = try await config.dependencies(at: dataset.asOf).importFiles(
            ImportRequest(
                transactions: [try dir.write("t.csv", dataset.transactions)],
                receipts: [try dir.write("r.jsonl", dataset.receipts)],
                products: [try dir.write("p.csv", dataset.products)],
                salesReports: try dataset.writeSalesReports(into: dir.path), financialReports: finance.reports,
                payments: finance.payments, entitlements: [try dir.write("e.csv", dataset.entitlements)],
                consents: [try dir.write("c.csv", dataset.consents)]))
        // What the webhook stored (the history sweep does not bring these).
        _ = try await config.dependencies(at: dataset.asOf).importFiles(
            ImportRequest(notifications: [try dir.write("n.jsonl", dataset.notifications)]))
        return (dataset, simulator, config)
    }

    func status(_ transactionID: String, _ config: ReconConfig) throws -> [VerificationStatus] {
        try ReconStore(path: config.databasePath).lookup.ledgerRows(transactionIDs: [transactionID]).map(
            \.verificationStatus)
    }

    func injected(_ code: FindingCode, _ dataset: DemoDataset) -> [String] {
        dataset.injected.filter { $0.0 == code }.map(\.1)
    }

    @Test func settlesEveryPendingRowByItsEvidenceAndNeverAsksTwice() async throws {
        let (dataset, simulator, config) = try await prepare()
        let first = try await config.dependencies().verify()
        #expect(first.exitCode == 0)
        // With Server API credentials, verify swept Apple's notification history to the last page
        // and recorded it in the verify stage of its run.
        let history = first.lines.first { $0.hasPrefix("notification history: ") }
        #expect(history != nil, "\(first.lines)")
        #expect(history?.contains("left open") == false)
        // Then asked Apple once for the status of every subscription an entitlement may hold.
        #expect(
            first.lines.last
                == "subscription statuses: 7 asked, 7 recorded, 0 unknown to Apple, 0 unreachable, 0 rejected",
            "\(first.lines)")
        let runJSON = try #require(try ReconStore(path: config.databasePath).runRecordJSON(1))
        let run = try #require(try JSONSerialization.jsonObject(with: Data(runJSON.utf8)) as? [String: Any])
        let verifyStage = (run["stages"] as? [[String: Any]])?.first { $0["name"] as? String == "verify" }
        let counts = try #require(verifyStage?["counts"] as? [String: Int])
        #expect((counts["history_pages"] ?? 0) > 0)
        #expect((counts["history_new_notifications"] ?? 0) > 0)
        #expect(counts["history_open_windows"] == 0)
        // Another app's signed transaction and a receipt Apple rejects (21002) are invalid.
        for id in injected(.bundleMismatch, dataset) + injected(.invalidReceipt, dataset) {
            #expect(try status(id, config) == [.invalid], "\(id)")
        }
        // TestFlight receipts verified at sandbox after 21007; refunds and undelivered verified.
        for id in injected(.sandboxInProduction, dataset) + injected(.refundedDelivered, dataset)
            + injected(.undelivered, dataset)
        {
            #expect(try status(id, config).allSatisfy { $0 == .verified }, "\(id)")
        }
        // Apple unreachable for this one (Server API 503): still pending, never invalid.
        let stuck = try #require(dataset.unreachableTransactionIDs.first)
        #expect(try status(stuck, config) == [.pending])
        let store = try ReconStore(path: config.databasePath)
        let attempts = try store.receipts.verifications(recordIDs: [], receiptIDs: [], transactionIDs: [stuck])
        #expect(attempts.map(\.outcome) == ["unreachable"])
        #expect(attempts.first?.attempts == 3)
        #expect(try store.ledger.counts().pending == 1)
        // Rows without a receipt were settled by Get Transaction Info.
        let serverAPI = try store.lookup.ledgerRows(userID: "user-server-api-1")
        #expect(serverAPI.map(\.verificationStatus) == [.verified])
        // Orphan receipts were verified, and the notification-history sweep brought the renewal
        // the ledger lacks: Apple's word is evidence of purchases the ledger lacks.
        for id in injected(.missingRecord, dataset) {
            #expect(
                try store.lookup.evidence(transactionIDs: [id], receiptIDs: []).contains {
                    ($0.source == .verifyReceipt && $0.appleStatus == 0) || $0.source == .notification
                }, "\(id)")
        }
        #expect(simulator.requestLog.count(path: "/production/verifyReceipt") > 0)
        #expect(simulator.requestLog.count(path: "/sandbox/verifyReceipt") == 2)

        // A rerun verifies nothing settled again: only the unreachable one is retried.
        let before =
            simulator.requestLog.count(prefix: "/production/verifyReceipt")
            + simulator.requestLog.count(prefix: "/sandbox/verifyReceipt")
        _ = try await config.dependencies().verify()
        let after =
            simulator.requestLog.count(prefix: "/production/verifyReceipt")
            + simulator.requestLog.count(prefix: "/sandbox/verifyReceipt")
        #expect(after == before)
        #expect(try store.ledger.counts().pending == 1)
        await simulator.stop()
    }

    /// Get Notification History serves 180 days in production
    /// (https://developer.apple.com/documentation/appstoreserverapi/get-notification-history): history since a
    /// sweep long ago that Apple no longer keeps is a warning in run.json, said once.
    @Test func historyAppleNoLongerKeepsIsAWarningOnce() async throws {
        let (_, _, config) = try await prepare()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let store = try ReconStore(path: config.databasePath)
        let old = try store.notifications.startNotificationSweep(
            environment: .production, startDate: now - 500 * 86_400_000, endDate: now - 400 * 86_400_000)
        try store.notifications.completeNotificationSweep(old.id)
        func warnings(_ run: Int64) throws -> [String] {
            let json = try #require(try ReconStore(path: config.databasePath).runRecordJSON(run))
            let record = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            return record["warnings"] as? [String] ?? []
        }
        let first = try await config.dependencies().verify()
        // The warning is the sweep's line; the subscription status sweep's line may follow it.
        #expect(first.lines.contains { $0.contains("Apple no longer keeps it") }, "\(first.lines)")
        #expect(try warnings(1).count == 1)
        #expect(try warnings(1).first?.hasPrefix("notification history Production from ") == true)
        _ = try await config.dependencies().verify()
        #expect(try warnings(2).isEmpty)
    }

    @Test func appleUnreachableLeavesRowsPendingNeverInvalid() async throws {
        let (dataset, simulator, baseConfig) = try await prepare(faults: [
            .always(at: "/production/verifyReceipt", .hang)
        ])
        var config = baseConfig
        config.requestTimeoutMillis = 200
        config.retryAttempts = 2
        let outcome = try await config.dependencies().verify()
        #expect(outcome.exitCode == 0)
        // Every receipt needing verifyReceipt timed out: those rows stay pending.
        for id in injected(.invalidReceipt, dataset) + injected(.sandboxInProduction, dataset) {
            #expect(try status(id, config) == [.pending], "\(id)")
        }
        let store = try ReconStore(path: config.databasePath)
        let receiptIDs = try store.lookup.ledgerRows(transactionIDs: injected(.invalidReceipt, dataset)).compactMap(
            \.receiptID)
        let tries = try store.receipts.verifications(recordIDs: [], receiptIDs: receiptIDs, transactionIDs: [])
        #expect(tries.map(\.outcome) == ["unreachable"])
        #expect(tries.first?.attempts == 2)
        #expect(outcome.lines.first?.contains("unreachable (still pending)") == true)
        await simulator.stop()
    }

    @Test func goldenDiscrepanciesOfTheDemoLedgerCoverEveryCode() async throws {
        let (dataset, simulator, config) = try await prepare()
        let outcome = try await config.dependencies().nightly(ImportRequest())
        await simulator.stop()
        #expect(outcome.exitCode == 0)
        let text = try dir.read("out/discrepancies.csv")
        let codes = Set(
            text.split(separator: "\r\n").dropFirst().compactMap { $0.split(separator: ",").first.map(String.init) })
        #expect(codes == Set(FindingCode.allCases.map(\.rawValue)))
        if let mismatch = snapshotMismatch(text, named: "demo-seed7.discrepancies.csv") {
            Issue.record(Comment(rawValue: mismatch))
        }
    }

    /// Issue 10's demo: a refund of a purchase verified days ago that no receipt shows, learned only
    /// from Apple's notification history (`REFUNDED_DELIVERED`, lookup "refunded", a revenue refund);
    /// a refund Apple reversed (no finding, not refunded); a Family Sharing revoke (no refund).
    @Test func theDemoShowsARefundOnlyTheSweepRevealed() async throws {
        let (_, simulator, config) = try await prepare()
        let outcome = try await config.dependencies().nightly(ImportRequest())
        await simulator.stop()
        #expect(outcome.exitCode == 0)
        let store = try ReconStore(path: config.databasePath)
        let discrepancies = try dir.read("out/discrepancies.csv")
        func lookup(_ user: String) throws -> LookupReport {
            try Lookup.build(.user(user), store: store, bundleIDs: Set(config.bundleIDs))
        }

        let later = try lookup("user-refunded-later")
        let refunded = try #require(store.lookup.ledgerRows(userID: "user-refunded-later").first?.transactionID)
        // The uploaded receipt says nothing of a refund; Apple's notification from the sweep does.
        let evidence = try store.lookup.evidence(transactionIDs: [refunded], receiptIDs: [])
        #expect(evidence.contains { $0.source == .offline && $0.entry.cancellationDate == nil })
        #expect(evidence.filter { $0.entry.cancellationDate != nil }.allSatisfy { $0.source == .notification })
        let refunds = try store.notifications.notifications(transactionIDs: [refunded], originalTransactionIDs: [])
            .filter { $0.type == "REFUND" }
        #expect(refunds.map(\.source) == ["history"])
        #expect(later.refunded == 1, "\(later.answer)")
        let swept = "from Apple's notification history"
        #expect(later.events.contains { $0.text.contains("notification REFUND ") && $0.text.contains(swept) })
        #expect(discrepancies.contains("REFUNDED_DELIVERED,high,\(refunded),"))
        #expect(try store.revenue.refundLearnedBySweep()(refunded))

        let reversed = try lookup("user-refund-reversed")
        let reversedID = try #require(store.lookup.ledgerRows(userID: "user-refund-reversed").first?.transactionID)
        #expect(reversed.refunded == 0, "\(reversed.answer)")
        #expect(reversed.events.contains { $0.text.contains("REFUND_REVERSED") })
        #expect(!discrepancies.contains("REFUNDED_DELIVERED,high,\(reversedID),"))

        let family = try lookup("user-family-member")
        let familyID = try #require(store.lookup.ledgerRows(userID: "user-family-member").first?.transactionID)
        #expect(family.refunded == 0, "\(family.answer)")
        #expect(family.events.contains { $0.text.contains("Apple notification REVOKE") })
        #expect(!discrepancies.contains("REFUNDED_DELIVERED,high,\(familyID),"))

        // A subscription upgrade from the sweep (DID_CHANGE_RENEWAL_PREF/UPGRADE): the yearly
        // purchase is revenue on its day, the monthly one (Get Transaction Info: isUpgraded) is
        // no customer refund, and neither is a finding.
        let upgrade = try lookup("user-upgrade")
        let upgradeRows = try store.lookup.ledgerRows(userID: "user-upgrade")
        #expect(upgradeRows.map(\.verificationStatus) == [.verified, .verified])
        #expect(upgrade.answer.contains("1 upgraded to another subscription"), "\(upgrade.answer)")
        #expect(upgrade.refunded == 0)
        #expect(
            upgrade.events.contains { $0.text.contains("DID_CHANGE_RENEWAL_PREF/UPGRADE") && $0.text.contains(swept) })
        #expect(upgrade.events.contains { $0.kind == "upgrade" && $0.text.contains("not in Apple's data") })
        for row in upgradeRows {
            #expect(!discrepancies.contains(",\(row.transactionID),"), "\(row.transactionID)")
        }
        #expect(try dir.read("out/revenue_daily.csv").contains(",pro_yearly,USD,1,39.99,0.00,39.99,"))
    }

    @Test func orderLookupGoesThroughTheServerAPI() async throws {
        let (dataset, simulator, config) = try await prepare()
        _ = try await config.dependencies().verify()
        let undelivered = try #require(injected(.undelivered, dataset).first)
        let found = try await config.dependencies().lookup(.order("MK" + undelivered, transactionIDs: []), json: false)
        #expect(
            found.lines.first?.hasPrefix(
                "order MK\(undelivered): charged for 1 purchase, delivered 0 of 1; NOT DELIVERED: \(undelivered)")
                == true)
        let unknown = try await config.dependencies().lookup(.order("NOPE123", transactionIDs: []), json: false)
        #expect(unknown.lines == ["order NOPE123: Apple says this order id is not valid (status 1)"])
        #expect(simulator.requestLog.count(prefix: "/production/inApps/v1/lookup/") == 2)
        await simulator.stop()
    }
}
