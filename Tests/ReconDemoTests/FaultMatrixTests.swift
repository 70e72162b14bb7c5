import AppStoreSimulator
import Foundation
import IAPReconTestSupport
import Logging
import ReconDemo
import Synchronization
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

/// The reliability suite's fault matrix: `verify` over the demo store while Apple misbehaves on every request to
/// verifyReceipt and the Server API.
///
/// Zero wrong verdicts: each row ends as it does against a healthy Apple, or still pending; never invalid because
/// Apple was unreachable (CONTRACT §3). The notification history endpoint (Get Notification History) gets the same
/// faults: a page that fails leaves the sweep's window open, to be fetched again next run.
@Suite(.serialized) struct FaultMatrixTests {
    let logger = Logger.quiet

    static let faults: [Fault] = [
        .hang, .connectionReset, .httpStatus(500, errorCode: nil), .httpStatus(503, errorCode: nil),
        .httpStatus(500, errorCode: 5_000_001), .tooManyRequests(retryAfter: .unixMilliseconds(delayMilliseconds: 100)),
        .tooManyRequests(retryAfter: .seconds(1)), .tooManyRequests(retryAfter: nil),
        .verifyReceiptStatus(21_005, isRetryable: nil), .verifyReceiptStatus(21_100, isRetryable: true),
        .verifyReceiptStatus(21_199, isRetryable: false), .malformedJSON, .truncatedBody, .closedMidBody,
    ]

    /// Get Notification History, in both environments.
    static let historyPaths = [
        "/production/inApps/v1/notifications/history", "/sandbox/inApps/v1/notifications/history",
    ]

    /// What one `verify` left in the store.
    struct Outcome: Sendable {
        var verdicts: [String: VerificationStatus]
        var sweeps: [NotificationSweepWindow]
        var notifications: Int
    }

    /// Every ledger row's verdict after one `verify` with `faults` on every request.
    func verdicts(_ faults: [FaultRule]) async throws -> [String: VerificationStatus] {
        faults.isEmpty ? try await healthy().verdicts : try await outcome(faults).verdicts
    }

    /// A healthy Apple's outcome, worked out once per history page size and timeout (the dataset is the same).
    static let healthyOutcomes = Mutex<[String: Outcome]>([:])

    func healthy(historyPageSize: Int? = nil, timeoutMillis: Int = 400) async throws -> Outcome {
        let key = "\(historyPageSize ?? 0)/\(timeoutMillis)"
        if let known = Self.healthyOutcomes.withLock({ $0[key] }) { return known }
        let outcome = try await outcome([], historyPageSize: historyPageSize, timeoutMillis: timeoutMillis)
        Self.healthyOutcomes.withLock { $0[key] = outcome }
        return outcome
    }

    /// History pages are signed notifications (two JWS each): a debug build on a busy machine needs more than the
    /// verifyReceipt matrix's 400 ms to sign one, so the history tests wait longer.
    static let historyTimeoutMillis = 3_000

    /// Verdicts, notification-history windows and notifications kept after one `verify` with `faults`.
    func outcome(_ faults: [FaultRule], historyPageSize: Int? = nil, timeoutMillis: Int = 400) async throws
        -> Outcome
    {
        let dir = TemporaryDirectory("fault-matrix")
        var dataset = try DemoDataset.generate(seed: 11, purchases: 20)
        if let historyPageSize { dataset.seed.historyPageSize = historyPageSize }
        let (simulator, started) = try await DemoRun.startSimulator(
            for: dataset, databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"),
            inputDirectory: dir.path,
            extraFaults: faults)
        var config = started
        config.retryAttempts = 2
        config.retryBaseDelayMillis = 10
        config.retryBudgetMillis = Int64(max(3_000, timeoutMillis * 3))
        config.requestTimeoutMillis = Int64(timeoutMillis)
        _ = try await config.dependencies(at: dataset.asOf).importFiles(
            ImportRequest(
                transactions: [try dir.write("t.csv", dataset.transactions)],
                receipts: [try dir.write("r.jsonl", dataset.receipts)],
                products: [try dir.write("p.csv", dataset.products)]))
        do {
            _ = try await config.dependencies(opening: .existing).verify()
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
        var result: [String: VerificationStatus] = [:]
        let store = try ReconStore(path: config.databasePath)
        try store.ledger.forEachTransactionGroup { group in
            for row in group.records { result[row.recordID] = row.verificationStatus }
        }
        return Outcome(
            verdicts: result, sweeps: try store.notifications.notificationSweeps(),
            notifications: try store.notifications.notificationCount())
    }

    @Test(arguments: faults)
    func noWrongVerdictWhileAppleMisbehaves(_ fault: Fault) async throws {
        let healthy = try await verdicts([])
        let faulted = try await verdicts([.always(fault)])
        #expect(faulted.keys.sorted() == healthy.keys.sorted())
        let wrong = faulted.filter { record, status in status != healthy[record] && status != .pending }
        #expect(wrong.isEmpty, "\(fault): \(wrong)")
        // Apple's answers were needed for some rows: those stayed pending.
        #expect(faulted.values.filter { $0 == .pending }.count >= healthy.values.filter { $0 == .pending }.count)
    }

    /// Get Notification History misbehaving on every page: the verdicts are a healthy run's (or pending), no
    /// notification is invented, and no window is recorded as completed, so the next run asks for it again.
    @Test(arguments: faults)
    func historySweepStaysOpenWhileAppleMisbehaves(_ fault: Fault) async throws {
        let healthy = try await healthy(timeoutMillis: Self.historyTimeoutMillis)
        #expect(!healthy.sweeps.isEmpty && healthy.sweeps.allSatisfy { $0.completedAt != nil }, "\(healthy.sweeps)")
        let faulted = try await outcome(
            Self.historyPaths.map { FaultRule.always(at: $0, fault) }, timeoutMillis: Self.historyTimeoutMillis)
        let wrong = faulted.verdicts.filter { record, status in
            status != healthy.verdicts[record] && status != .pending
        }
        #expect(wrong.isEmpty, "\(fault): \(wrong)")
        #expect(faulted.notifications <= healthy.notifications)
        #expect(!faulted.sweeps.isEmpty, "\(fault)")
        #expect(faulted.sweeps.allSatisfy { $0.completedAt == nil }, "\(fault): \(faulted.sweeps)")
    }

    /// A page that fails after the first answered: the window keeps its place (the token of the last page
    /// fetched) and stays open.
    @Test(arguments: [Fault.truncatedBody, .closedMidBody, .connectionReset, .httpStatus(500, errorCode: nil)])
    func aFailedLaterPageLeavesTheWindowOpen(_ fault: Fault) async throws {
        // Pages of 2 notifications, so the production history takes several.
        let healthy = try await healthy(historyPageSize: 2, timeoutMillis: Self.historyTimeoutMillis)
        let production = healthy.sweeps.first { $0.environment == .production }
        try #require((production?.pages ?? 0) > 1, "\(healthy.sweeps)")
        // Every production history request after the first fails (the retries too).
        let faulted = try await outcome(
            [FaultRule(path: Self.historyPaths[0], fault: fault, skipFirst: 1)], historyPageSize: 2,
            timeoutMillis: Self.historyTimeoutMillis)
        let wrong = faulted.verdicts.filter { record, status in
            status != healthy.verdicts[record] && status != .pending
        }
        #expect(wrong.isEmpty, "\(fault): \(wrong)")
        let window = faulted.sweeps.first { $0.environment == .production }
        #expect(window?.completedAt == nil, "\(fault): \(faulted.sweeps)")
        #expect(window?.pages == 1 && window?.paginationToken != nil, "\(fault): \(faulted.sweeps)")
        #expect(faulted.notifications < healthy.notifications)
    }
}
