import AppleData
import Foundation
import Logging
import ReconModel
import ReconStorage

/// What one Get Notification History sweep did.
public struct SweepSummary: Sendable, Hashable, Codable {
    /// Pages fetched in this run.
    public var pages = 0
    /// Notifications kept for the first time.
    public var newNotifications = 0
    /// Notifications already kept (webhook retries, the one-day overlap).
    public var knownNotifications = 0
    /// Notifications that failed verification (kept as rejected rows).
    public var rejected = 0
    /// Windows completed in this run.
    public var completedWindows = 0
    /// Environments whose window stays open because Apple could not be reached or refused.
    public var openWindows: [String] = []
    /// Spans Apple no longer keeps, that no sweep got: each is reported once, by the run that gives it up.
    public var unservedGaps: [SweepGap] = []

    public var line: String {
        let open = openWindows.isEmpty ? "" : "; left open for the next run: \(openWindows.joined(separator: ", "))"
        let gaps = unservedGaps.map { "; \($0.text)" }.joined()
        return "notification history: \(pages) pages, \(newNotifications) new, \(knownNotifications) already kept, "
            + "\(rejected) rejected\(open)\(gaps)"
    }

    /// One line per gap, for the run record's warnings.
    public var warnings: [String] { unservedGaps.map(\.text) }
}

/// A span of notification history no sweep got and Apple no longer keeps (Get Notification History serves 180
/// days in production, 30 in sandbox): notifications signed in it reach the store only from the webhook's files.
public struct SweepGap: Sendable, Hashable, Codable {
    public var environment: String
    /// Epoch ms, inclusive.
    public var from: Int64
    /// Epoch ms, exclusive: the oldest moment Apple still serves.
    public var to: Int64

    public var text: String {
        "notification history \(environment) from \(Timestamp.iso(from)) to \(Timestamp.iso(to)) was never "
            + "swept and Apple no longer keeps it (import the webhook's notifications for that span)"
    }
}

/// Sweeps Apple's notification history (CONTRACT §3): production, then sandbox; the window runs
/// from the end of the last completed sweep less one day of overlap (the first sweep goes back
/// ``historyDays``) to now.
///
/// Every page's notifications are kept before its pagination token is saved, so a killed sweep
/// resumes at the page it was on and loses nothing (a page fetched twice is deduplicated by
/// `notificationUUID`). The window is completed only after the last page; an unreachable Apple
/// leaves it open for the next run. Rate limit and `Retry-After` are the client's.
public struct NotificationHistorySweep: Sendable {
    public var client: AppStoreServerAPIClient
    public var check: NotificationCheck
    /// How far back the first sweep goes, in days (at most 180).
    public var historyDays: Int
    /// Stop after this many pages in one run (a runaway `hasMore` never loops forever).
    public var maxPages = 10_000

    package static let dayMillis: Int64 = 86_400_000
    /// One day of overlap with the previous window (CONTRACT §3).
    package static let overlapMillis: Int64 = dayMillis

    public init(client: AppStoreServerAPIClient, check: NotificationCheck, historyDays: Int) {
        self.client = client
        self.check = check
        self.historyDays = historyDays
    }

    /// How long Apple keeps history: 180 days in production, 30 in sandbox (Get Notification History).
    package static func retentionDays(_ environment: StoreEnvironment) -> Int64 {
        environment == .production ? 180 : 30
    }

    /// The oldest start Apple serves in `environment` at `realNow` (the wall clock, never `--as-of`), with an hour
    /// to spare: Get Notification History takes a `startDate` "no more than 180 days" back in production, 30 in
    /// sandbox (https://developer.apple.com/documentation/appstoreserverapi/get-notification-history).
    package static func oldestServed(_ environment: StoreEnvironment, realNow: Int64) -> Int64 {
        realNow - retentionDays(environment) * dayMillis + dayMillis / 24
    }

    /// Sweeps production, then sandbox, up to `run`'s "now" on Apple's side (``RunContext/appleNow()``).
    package func run(store: any VerificationStore, in run: RunContext, logger: Logger) async throws -> SweepSummary {
        var summary = SweepSummary()
        for environment in [StoreEnvironment.production, .sandbox] {
            try await sweep(environment, store: store, run: run, logger: logger, into: &summary)
        }
        return summary
    }

    /// The window to sweep now in `environment`: the open one, else a new one; nil when "now"
    /// (`--as-of`) is not after the last completed window's start, or Apple no longer keeps any of it.
    ///
    /// Apple's retention is measured from `realNow` (the wall clock). A window that would start before what Apple
    /// still serves starts there instead, and the span it gives up is a gap (``SweepGap``), reported once: an open
    /// window whose start Apple has meanwhile dropped is moved forward (its pages asked again from the first, the
    /// notifications already kept are deduplicated), never asked as it was forever. A first sweep going back
    /// `historyDays` is clamped without a gap: nothing was swept before it.
    package func window(
        _ environment: StoreEnvironment, store: any VerificationStore, now: () -> Int64, realNow: Int64
    ) throws -> (window: NotificationSweepWindow?, gap: SweepGap?) {
        let oldest = Self.oldestServed(environment, realNow: realNow)
        var givenUp: Int64?
        if var open = try store.notifications.openNotificationSweep(environment: environment) {
            guard open.startDate < oldest else { return (open, nil) }
            let gap = SweepGap(environment: environment.rawValue, from: open.startDate, to: oldest)
            if oldest < open.endDate {
                try store.notifications.restartNotificationSweep(open.id, startDate: oldest)
                open.startDate = oldest
                open.paginationToken = nil
                return (open, gap)
            }
            // Apple keeps none of it: given up (recorded as ended), and the next window starts after it.
            try store.notifications.completeNotificationSweep(open.id)
            givenUp = open.startDate
        }
        let now = now()
        var start = now - Int64(min(max(historyDays, 1), 180)) * Self.dayMillis
        var gap: SweepGap?
        if let last = try store.notifications.lastCompletedNotificationSweep(environment: environment) {
            start = last.endDate - Self.overlapMillis
            if let from = [givenUp, start < oldest ? start : nil].compactMap({ $0 }).min() {
                gap = SweepGap(environment: environment.rawValue, from: from, to: max(from, min(oldest, now)))
            }
        }
        guard max(start, oldest) < now else { return (nil, gap) }
        let window = try store.notifications.startNotificationSweep(
            environment: environment, startDate: max(start, oldest), endDate: now)
        return (window, gap)
    }

    package func sweep(
        _ environment: StoreEnvironment, store: any VerificationStore, run: RunContext, logger: Logger,
        into summary: inout SweepSummary
    ) async throws {
        let (next, gap) = try window(environment, store: store, now: run.appleNow, realNow: run.nowMillis())
        if let gap {
            logger.warning("\(gap.text)")
            summary.unservedGaps.append(gap)
        }
        guard var window = next else { return }
        var fetched = 0
        while fetched < maxPages {
            let answer = await client.notificationHistoryPage(
                startDate: window.startDate, endDate: window.endDate, paginationToken: window.paginationToken,
                environment: environment)
            let page: NotificationHistoryPage
            switch answer {
            case .success(let value): page = value
            case .unreachable(let reason, let attempts):
                logger.warning(
                    "Apple unreachable; notification-history window left open",
                    metadata: [
                        "environment": "\(environment.rawValue)", "reason": "\(reason)", "attempts": "\(attempts)",
                    ])
                summary.openWindows.append(environment.rawValue)
                return
            case .failure(let failure) where failure.apiError == .startDateTooFarInPast:
                // Apple says the start is older than it keeps (a clock apart from Apple's): start a day later next
                // run rather than ask the same window forever.
                let start = Self.oldestServed(environment, realNow: run.nowMillis()) + Self.dayMillis
                let gap = SweepGap(
                    environment: environment.rawValue, from: window.startDate, to: min(start, window.endDate))
                logger.warning("\(gap.text)")
                summary.unservedGaps.append(gap)
                if start < window.endDate {
                    try store.notifications.restartNotificationSweep(window.id, startDate: start)
                    summary.openWindows.append(environment.rawValue)
                } else {
                    try store.notifications.completeNotificationSweep(window.id)
                }
                return
            case .failure(let failure):
                logger.warning(
                    "Get Notification History refused; window left open",
                    metadata: ["environment": "\(environment.rawValue)", "failure": "\(failure)"])
                summary.openWindows.append(environment.rawValue)
                return
            }
            fetched += 1
            summary.pages += 1
            var added = 0
            for (index, signed) in page.signedPayloads.enumerated() {
                switch await check.verify(signed) {
                case .success(let notification):
                    let now = run.nowMillis()
                    if try store.notifications.recordNotification(
                        notification, origin: .history, at: now, learnedAt: run.learnedAt(now))
                    {
                        added += 1
                    } else {
                        summary.knownNotifications += 1
                    }
                case .failure(let rejection):
                    summary.rejected += 1
                    try store.notifications.rejectNotification(
                        RejectedRow(
                            kind: .notifications,
                            source:
                                "notification history \(environment.rawValue) window \(window.id) page \(window.pages + 1)",
                            line: index + 1, recordID: nil, reason: rejection.reason,
                            raw: signed))
                }
            }
            summary.newNotifications += added
            if page.hasMore, page.paginationToken == nil || page.paginationToken == window.paginationToken {
                logger.warning(
                    "Apple said hasMore without a new paginationToken; window left open",
                    metadata: ["environment": "\(environment.rawValue)"])
                summary.openWindows.append(environment.rawValue)
                return
            }
            try store.notifications.advanceNotificationSweep(
                window.id, paginationToken: page.paginationToken, newNotifications: added)
            window.paginationToken = page.paginationToken
            window.pages += 1
            if !page.hasMore {
                try store.notifications.completeNotificationSweep(window.id)
                summary.completedWindows += 1
                return
            }
        }
        summary.openWindows.append(environment.rawValue)
    }
}
