import AppStoreSimulator
import Foundation
import IAPReconTestSupport
import Logging
import ReconDemo
import Testing

@testable import IAPRecon

/// The reliability suite's fault matrix: `verify` over the demo store while Apple misbehaves on every request to
/// verifyReceipt and the Server API.
///
/// Zero wrong verdicts: each row ends as it does against a healthy Apple, or still pending; never invalid because
/// Apple was unreachable (SPEC §3). The notification history endpoint is not covered yet: the sweep does not
/// exist.
@Suite(.serialized) struct FaultMatrixTests {
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    static let faults: [Fault] = [
        .hang, .connectionReset, .httpStatus(500, errorCode: nil), .httpStatus(503, errorCode: nil),
        .httpStatus(500, errorCode: 5_000_001), .tooManyRequests(retryAfter: .unixMilliseconds(delayMilliseconds: 100)),
        .tooManyRequests(retryAfter: .seconds(1)), .tooManyRequests(retryAfter: nil),
        .verifyReceiptStatus(21_005, isRetryable: nil), .verifyReceiptStatus(21_100, isRetryable: true),
        .verifyReceiptStatus(21_199, isRetryable: false), .malformedJSON,
    ]

    /// Every ledger row's verdict after one `verify` with `faults` on every request.
    func verdicts(_ faults: [FaultRule]) async throws -> [String: VerificationStatus] {
        let dir = TemporaryDirectory("fault-matrix")
        let dataset = try DemoDataset.generate(seed: 11, purchases: 20)
        let (simulator, started) = try await DemoRun.startSimulator(
            for: dataset, databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"),
            inputDirectory: dir.path,
            extraFaults: faults)
        var config = started
        config.retryAttempts = 2
        config.retryBaseDelayMillis = 10
        config.retryBudgetMillis = 3_000
        config.requestTimeoutMillis = 400
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
        try ReconStore(path: config.databasePath).forEachTransactionGroup { group in
            for row in group.records { result[row.recordID] = row.verificationStatus }
        }
        return result
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
}
