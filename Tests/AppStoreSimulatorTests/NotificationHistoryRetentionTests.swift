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

/// Get Notification History keeps 180 days in production and 30 in sandbox.
///
/// Its `startDate` may go back "no more than 180 days" (https://developer.apple.com/documentation/appstoreserverapi/get-notification-history;
/// `StartDateTooFarInPastError` 4000012:
/// https://developer.apple.com/documentation/appstoreserverapi/startdatetoofarinpasterror), measured from the real
/// date. A window that falls outside is clamped, the span lost is reported once, and no window is asked forever.
@Suite struct NotificationHistoryRetentionTests {
    let dir = TemporaryDirectory("sweep-retention")
    static let base = NotificationHistorySweepTests.base
    static let day = NotificationHistorySweepTests.day
    static let now = NotificationHistorySweepTests.now
    static let historyPath = NotificationHistorySweepTests.historyPath
    /// The oldest start Apple serves in production at `now`, with the sweep's hour to spare.
    static let oldest = now - 180 * day + day / 24

    func sweep(
        _ simulator: AppStoreSimulator, _ transport: AsyncHTTPTransport, store: ReconStore, asOf: Int64? = nil
    ) async throws -> SweepSummary {
        let client = try AppStoreServerAPIClient(
            key: SimFixture.apiKey(), endpoints: simulator.endpoints(requestTimeout: .seconds(20)),
            transport: transport, retryPolicy: SimFixture.fastPolicy(maxAttempts: 2), rateLimiter: .unlimited())
        let check = NotificationCheck(
            trust: TrustStore(roots: [simulator.authority.root]), bundleIDs: [SimFixture.bundleID])
        let run = RunContext(runID: nil, asOf: asOf, givenAsOf: asOf, clock: ManualClock(millis: Self.now))
        return try await NotificationHistorySweep(client: client, check: check, historyDays: 180)
            .run(store: store, in: run, logger: Logger.quiet)
    }

    func store() throws -> ReconStore {
        try ReconStore(path: dir.file("s.sqlite"), clock: ManualClock(millis: Self.now))
    }

    @Test func aWindowSinceALongAgoSweepStartsWhereAppleStillServesAndReportsTheGapOnce() async throws {
        try await withSimulator { simulator, transport in
            let store = try store()
            let old = try store.notifications.startNotificationSweep(
                environment: .production, startDate: Self.base - 300 * Self.day, endDate: Self.base - 200 * Self.day)
            try store.notifications.completeNotificationSweep(old.id)
            let summary = try await sweep(simulator, transport, store: store)
            #expect(
                summary.unservedGaps == [
                    SweepGap(environment: "Production", from: Self.base - 201 * Self.day, to: Self.oldest)
                ])
            #expect(summary.line.contains("was never swept and Apple no longer keeps it"))
            #expect(summary.openWindows.isEmpty && summary.newNotifications == 7)
            let production = try store.notifications.notificationSweeps().filter { $0.environment == .production }
            #expect(production.last?.startDate == Self.oldest)
            // The next run: nothing lost, nothing said again.
            #expect(try await sweep(simulator, transport, store: store).unservedGaps.isEmpty)
        }
    }

    @Test func anOpenWindowAppleNoLongerServesIsMovedForwardNotAskedForever() async throws {
        try await withSimulator { simulator, transport in
            let store = try store()
            let open = try store.notifications.startNotificationSweep(
                environment: .production, startDate: Self.base - 100 * Self.day, endDate: Self.now - 10 * Self.day)
            try store.notifications.advanceNotificationSweep(
                open.id, paginationToken: "a-token-of-the-old-dates", newNotifications: 0)
            let summary = try await sweep(simulator, transport, store: store)
            #expect(
                summary.unservedGaps == [
                    SweepGap(environment: "Production", from: Self.base - 100 * Self.day, to: Self.oldest)
                ])
            #expect(summary.openWindows.isEmpty && summary.newNotifications == 7)
            // Asked from its first page with the dates Apple serves, not with the old token.
            let first = try #require(
                simulator.requestLog.requests.first { $0.path == Self.historyPath })
            #expect(first.query == nil)
            let window = try #require(try store.notifications.notificationSweeps().first { $0.id == open.id })
            #expect(window.startDate == Self.oldest && window.completedAt != nil)
            #expect(try await sweep(simulator, transport, store: store).unservedGaps.isEmpty)
        }
    }

    @Test func anOpenWindowWhollyOutsideIsGivenUpWithOneGap() async throws {
        try await withSimulator { simulator, transport in
            let store = try store()
            _ = try store.notifications.startNotificationSweep(
                environment: .production, startDate: Self.base - 300 * Self.day, endDate: Self.base - 200 * Self.day)
            let summary = try await sweep(simulator, transport, store: store)
            #expect(
                summary.unservedGaps == [
                    SweepGap(environment: "Production", from: Self.base - 300 * Self.day, to: Self.oldest)
                ])
            #expect(summary.newNotifications == 7)
            #expect(try store.notifications.openNotificationSweep(environment: .production) == nil)
            #expect(try await sweep(simulator, transport, store: store).unservedGaps.isEmpty)
        }
    }

    /// `--as-of` in the past ends the window there, but Apple's 180 days run from the real date.
    @Test func retentionIsMeasuredFromTheRealDateNotTheAsOf() async throws {
        try await withSimulator { simulator, transport in
            let store = try store()
            let asOf = Self.now - 20 * Self.day
            let summary = try await sweep(simulator, transport, store: store, asOf: asOf)
            #expect(summary.unservedGaps.isEmpty)  // a first sweep: nothing was lost
            let windows = try store.notifications.notificationSweeps()
            #expect(windows.first { $0.environment == .production }?.startDate == Self.oldest)
            #expect(windows.first { $0.environment == .production }?.endDate == asOf)
            #expect(windows.first { $0.environment == .sandbox }?.startDate == Self.now - 30 * Self.day + Self.day / 24)
        }
    }

    /// Apple refusing the start date (a clock apart from Apple's) moves the window a day later, once.
    @Test func startDateTooFarInPastMovesTheWindowInsteadOfAskingItAgain() async throws {
        let faults = FaultPlan([.first(1, at: Self.historyPath, .httpStatus(400, errorCode: 4_000_012))])
        try await withSimulator(faults: faults) { simulator, transport in
            let store = try store()
            let refused = try await sweep(simulator, transport, store: store)
            #expect(
                refused.unservedGaps == [
                    SweepGap(environment: "Production", from: Self.oldest, to: Self.oldest + Self.day)
                ])
            #expect(refused.openWindows.contains("Production"))
            let open = try #require(try store.notifications.openNotificationSweep(environment: .production))
            #expect(open.startDate == Self.oldest + Self.day)
            let next = try await sweep(simulator, transport, store: store)
            #expect(next.unservedGaps.isEmpty && next.openWindows.isEmpty)
            #expect(try store.notifications.openNotificationSweep(environment: .production) == nil)
        }
    }
}
