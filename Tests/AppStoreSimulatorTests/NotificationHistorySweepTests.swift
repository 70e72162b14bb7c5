import AppStoreSimulator
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

/// Get Notification History swept against the simulator: paging, resume after a kill, faults,
/// the one-day overlap, production before sandbox.
@Suite struct NotificationHistorySweepTests {
    let dir = TemporaryDirectory("sweep")
    let logger = Logger.quiet
    static let base: Int64 = 1_700_000_000_000
    static let day: Int64 = 86_400_000
    /// "Now" for the sweeps: 150 days after the seed's first purchase.
    static let now = base + 150 * day
    static let historyPath = "/production/inApps/v1/notifications/history"

    func sweep(
        _ simulator: AppStoreSimulator, _ transport: AsyncHTTPTransport, store: ReconStore, maxPages: Int = 10_000,
        attempts: Int = 4
    ) async throws -> SweepSummary {
        let client = try AppStoreServerAPIClient(
            key: SimFixture.apiKey(), endpoints: simulator.endpoints(requestTimeout: .seconds(20)),
            transport: transport, retryPolicy: SimFixture.fastPolicy(maxAttempts: attempts),
            rateLimiter: .unlimited())
        let check = NotificationCheck(
            trust: TrustStore(roots: [simulator.authority.root]), bundleIDs: [SimFixture.bundleID])
        var sweep = NotificationHistorySweep(client: client, check: check, historyDays: 180)
        sweep.maxPages = maxPages
        return try await sweep.run(store: store, in: .unrecorded(clock: ManualClock(millis: Self.now)), logger: logger)
    }

    func historyRequests(_ simulator: AppStoreSimulator) -> [SimulatorRequest] {
        simulator.requestLog.requests.filter { $0.path.hasSuffix("/inApps/v1/notifications/history") }
    }

    /// Production has 7 notifications in the window (a one-time charge, the subscription's
    /// first buy, four renewals, a refund); sandbox's purchases are older than its 30 days.
    @Test func everyPageInOrderThenTheWindowIsComplete() async throws {
        try await withSimulator { simulator, transport in
            let store = try ReconStore(path: dir.file("s.sqlite"), clock: ManualClock(millis: Self.now))
            let summary = try await sweep(simulator, transport, store: store)
            #expect(summary.pages == 5)  // 4 pages of 2 in production, 1 empty page in sandbox
            #expect(summary.newNotifications == 7)
            #expect(summary.rejected == 0)
            #expect(summary.openWindows.isEmpty)
            #expect(try store.notifications.notificationCount() == 7)
            let windows = try store.notifications.notificationSweeps()
            #expect(windows.map(\.environment) == [.production, .sandbox])
            #expect(windows.allSatisfy { $0.completedAt != nil })
            #expect(windows[0].pages == 4)
            #expect(windows[0].startDate == Self.now - 180 * Self.day + Self.day / 24)
            #expect(windows[1].startDate == Self.now - 30 * Self.day + Self.day / 24)
            // Production first, then sandbox; pages after the first carry Apple's token.
            let requests = historyRequests(simulator)
            let production = requests.prefix { $0.path.hasPrefix("/production") }
            #expect(!production.isEmpty && production.count < requests.count)
            #expect(requests.dropFirst(production.count).allSatisfy { $0.path.hasPrefix("/sandbox") })
            #expect(production.first?.query == nil)
            let tokens = Set(production.compactMap(\.query))
            #expect(tokens.count == 3 && tokens.allSatisfy { $0.hasPrefix("paginationToken=") })
            // The refund of renewal 3002 is now Apple's signed word in the store.
            let types = try store.notifications.notifications(transactionIDs: ["3002"], originalTransactionIDs: [])
                .map(\.type)
            #expect(types == ["DID_RENEW", "REFUND"])

            // The next sweep asks from the last window's end less one day: nothing new.
            let next = try await sweep(simulator, transport, store: store)
            #expect(next.newNotifications == 0)
            let after = try store.notifications.notificationSweeps()
            #expect(after.count == 4)
            #expect(after[2].startDate == Self.now - Self.day)
            #expect(try store.notifications.notificationCount() == 7)
        }
    }

    /// A sweep killed after two pages, then a run that cannot reach Apple, then one that can:
    /// it resumes at the saved token, loses no page and records the window once.
    @Test func resumesAfterAKillAndAnUnreachableAppleWithoutLosingAPage() async throws {
        try await withSimulator { simulator, transport in
            let store = try ReconStore(path: dir.file("s.sqlite"), clock: ManualClock(millis: Self.now))
            let killed = try await sweep(simulator, transport, store: store, maxPages: 2)
            #expect(killed.newNotifications == 4)
            #expect(killed.openWindows == ["Production"])
            let open = try #require(try store.notifications.openNotificationSweep(environment: .production))
            #expect(open.pages == 2)
            #expect(open.paginationToken != nil)

            simulator.setFaults(FaultPlan([.always(at: Self.historyPath, .httpStatus(503, errorCode: nil))]))
            let unreachable = try await sweep(simulator, transport, store: store, attempts: 2)
            #expect(unreachable.openWindows.contains("Production"))
            #expect(unreachable.newNotifications == 0)
            #expect(try store.notifications.openNotificationSweep(environment: .production) == open)

            simulator.setFaults(.none)
            let before = historyRequests(simulator).count
            let resumed = try await sweep(simulator, transport, store: store)
            #expect(resumed.openWindows.isEmpty)
            #expect(resumed.newNotifications == 3)
            #expect(try store.notifications.notificationCount() == 7)
            let first = historyRequests(simulator)[before]
            #expect(first.path == Self.historyPath)
            #expect(first.query == "paginationToken=" + (open.paginationToken ?? ""))
            let production = try store.notifications.notificationSweeps().filter { $0.environment == .production }
            #expect(production.count == 1)
            #expect(production[0].completedAt != nil)
            #expect(production[0].pages == 4)
        }
    }

    /// 429 with Retry-After and a malformed page are retried; the sweep completes.
    @Test func retriesTooManyRequestsAndMalformedPages() async throws {
        let faults = FaultPlan([
            .first(1, at: Self.historyPath, .tooManyRequests(retryAfter: .seconds(0))),
            .first(2, at: Self.historyPath, .malformedJSON),
        ])
        try await withSimulator(faults: faults) { simulator, transport in
            let store = try ReconStore(path: dir.file("s.sqlite"), clock: ManualClock(millis: Self.now))
            let summary = try await sweep(simulator, transport, store: store)
            #expect(summary.openWindows.isEmpty)
            #expect(try store.notifications.notificationCount() == 7)
            #expect(historyRequests(simulator).filter { $0.path == Self.historyPath }.count >= 5)
        }
    }

    /// A notification that does not verify (the simulator's chain is not trusted) is a rejected
    /// row; the window still completes, since every page is in.
    @Test func untrustedNotificationsAreRejectedRows() async throws {
        try await withSimulator { simulator, transport in
            let store = try ReconStore(path: dir.file("s.sqlite"), clock: ManualClock(millis: Self.now))
            let client = try AppStoreServerAPIClient(
                key: SimFixture.apiKey(), endpoints: simulator.endpoints(requestTimeout: .seconds(20)),
                transport: transport, retryPolicy: SimFixture.fastPolicy(), rateLimiter: .unlimited())
            let summary = try await NotificationHistorySweep(
                client: client, check: NotificationCheck(trust: .apple, bundleIDs: [SimFixture.bundleID]),
                historyDays: 180
            ).run(store: store, in: .unrecorded(clock: ManualClock(millis: Self.now)), logger: logger)
            #expect(summary.rejected == 7)
            #expect(try store.notifications.notificationCount() == 0)
            let rejected = try store.ledger.rejectedRows()
            #expect(rejected.count == 7)
            #expect(rejected.allSatisfy { $0.reason.contains("untrusted certificate chain") })
        }
    }

    /// Apple retries webhooks and the sweep overlaps them: notifications the backend's webhook
    /// already stored (imported twice) and the sweep then brings again are kept once.
    @Test func notificationsTheWebhookStoredAreKeptOnceWhenTheSweepBringsThemAgain() async throws {
        try await withSimulator { simulator, transport in
            // What Apple sent: every notification of the history, signed as the simulator signs it.
            let apple = try ReconStore(path: dir.file("apple.sqlite"), clock: ManualClock(millis: Self.now))
            _ = try await sweep(simulator, transport, store: apple)
            let stmt = try apple.db.prepare("SELECT signed_payload FROM notifications ORDER BY signed_date")
            var lines: [String] = []
            while try stmt.step() { lines.append(#"{"signedPayload":"\#(stmt.text(0))"}"#) }
            #expect(lines.count == 7)
            let webhook = try dir.write("webhook.jsonl", lines.joined(separator: "\n") + "\n")

            let store = try ReconStore(path: dir.file("s.sqlite"), clock: ManualClock(millis: Self.now))
            let importer = NotificationImporter(
                check: NotificationCheck(
                    trust: TrustStore(roots: [simulator.authority.root]), bundleIDs: [SimFixture.bundleID]))
            for _ in 0..<2 {
                let imported = try await importer.importFile(
                    webhook, into: store, run: .unrecorded(clock: ManualClock(millis: Self.now)))
                #expect(imported.accepted == 7 && imported.rejected == 0)
            }
            #expect(try store.notifications.notificationCount() == 7)
            let summary = try await sweep(simulator, transport, store: store)
            #expect(summary.newNotifications == 0)
            #expect(summary.rejected == 0)
            #expect(summary.openWindows.isEmpty)
            #expect(try store.notifications.notificationCount() == 7)
            #expect(try store.receipts.verificationCount(source: .notification) == 7)
        }
    }

    /// A refund of a row verified long ago, learned only through the sweep, changes a day the
    /// previous report already showed: `revenue_changes.csv` says so, and why.
    @Test func aRefundLearnedByTheSweepIsAReportedRevenueChange() async throws {
        try await withSimulator { simulator, transport in
            let renewal = Self.base + 60 * Self.day  // 3002, refunded a day later
            let ledger = """
                record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,price,currency,verification_status,delivered_at,finished_at
                r1,u1,pro.monthly,3002,3000,\(renewal),4.99,USD,verified,\(renewal),\(renewal)
                r2,u2,pro.monthly,x1,,\(renewal + Self.day),4.99,USD,verified,\(renewal + Self.day),\(renewal + Self.day)

                """
            var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
            config.bundleIDs = [SimFixture.bundleID]
            config.asOf = Self.now
            func recon() throws -> ReconDependencies {
                try ReconDependencies(config: config, clock: ManualClock(millis: Self.now), logger: logger)
            }
            _ = try await recon().importFiles(ImportRequest(transactions: [try dir.write("t.csv", ledger)]))
            _ = try await recon().report()
            let header = "date,product_id,currency,previous_net,current_net,difference,transaction_ids,reason\r\n"
            #expect(try dir.read("out/revenue_changes.csv") == header)
            #expect(!(try dir.read("out/discrepancies.csv").contains("REFUNDED_DELIVERED")))

            let store = try ReconStore(path: dir.file("s.sqlite"), clock: ManualClock(millis: Self.now))
            _ = try await sweep(simulator, transport, store: store)
            _ = try await recon().report()
            #expect(
                try dir.read("out/revenue_changes.csv")
                    == header
                    + "2024-01-14,pro.monthly,USD,4.99,0.00,-4.99,3002,refund learned from Apple's notification history\r\n"
            )
            #expect(try dir.read("out/discrepancies.csv").contains("REFUNDED_DELIVERED,high,3002,"))
        }
    }
}
