import AppStoreSimulator
import Foundation
import IAPRecon
import Logging

/// What one throughput probe measured.
public struct ThroughputReport: Sendable, Hashable, CustomStringConvertible {
    /// Verifications run.
    public var verifications: Int
    /// Of which Apple (the simulator) answered valid.
    public var valid: Int
    /// Requests in flight at most.
    public var concurrency: Int
    /// Latency the simulator added to every request.
    public var latency: Duration
    /// Wall time of the timed run.
    public var elapsed: Duration

    /// Verifications per second.
    public var perSecond: Double {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds > 0 ? Double(verifications) / seconds : 0
    }

    /// The ceiling: concurrency / latency.
    public var ideal: Double {
        let seconds = Double(latency.components.seconds) + Double(latency.components.attoseconds) / 1e18
        return seconds > 0 ? Double(concurrency) / seconds : 0
    }

    public var description: String {
        let rate = (perSecond * 10).rounded() / 10
        return "\(verifications) verifyReceipt verifications (\(valid) valid), concurrency \(concurrency), "
            + "latency \(latency): \(rate)/s (ideal \(Int(ideal.rounded()))/s)"
    }
}

extension AppStoreSimulator {
    /// Measures `verifyReceipt` throughput of the real client against a simulator on loopback.
    ///
    /// Starts a simulator that adds `latency` to every request, verifies `verifications`
    /// distinct receipts with at most `concurrency` in flight (after a short warm-up), and
    /// stops it again.
    ///
    /// - Throws: ``SimulatorError`` if the simulator cannot start; an HTTP client shutdown error.
    public static func measureVerifyReceiptThroughput(
        verifications: Int = 2_000, concurrency: Int = 32, latency: Duration = .milliseconds(50)
    ) async throws -> ThroughputReport {
        let count = max(1, verifications)
        let receipts = (0..<count).map { Data("throughput probe receipt \($0)".utf8).base64EncodedString() }
        var transactions: [SimulatorTransaction] = []
        var seededReceipts: [SimulatorReceipt] = []
        for (index, receipt) in receipts.enumerated() {
            let id = String(5_000_000 + index)
            transactions.append(
                SimulatorTransaction(
                    transactionId: id, productId: "coins.100", purchaseDate: 1_700_000_000_000 + Int64(index),
                    price: 990, currency: "USD"))
            seededReceipts.append(SimulatorReceipt(data: receipt, transactionIds: [id]))
        }
        let seed = SimulatorSeed(bundleId: "com.example.probe", transactions: transactions, receipts: seededReceipts)
        let milliseconds = Int(
            latency.components.seconds * 1000 + latency.components.attoseconds / 1_000_000_000_000_000)
        let simulator = try await start(seed: seed, faults: FaultPlan([.always(.latency(milliseconds: milliseconds))]))
        let endpoints = simulator.endpoints(requestTimeout: .seconds(10), concurrency: concurrency)
        var quiet = Logger(label: "iap-recon.probe")
        quiet.logLevel = .warning
        do {
            let report = try await AsyncHTTPTransport.withTransport(configuration: .matching(endpoints)) { transport in
                let client = try VerifyReceiptClient(
                    endpoints: endpoints, transport: transport, rateLimiter: .unlimited(), logger: quiet)
                // Warm-up: open the connections before timing.
                _ = await boundedConcurrentMap(Array(receipts.prefix(concurrency)), limit: concurrency) {
                    await client.verify(receiptData: $0)
                }
                let clock = ContinuousClock()
                let started = clock.now
                let outcomes = await boundedConcurrentMap(receipts, limit: concurrency) {
                    await client.verify(receiptData: $0)
                }
                let elapsed = clock.now - started
                return ThroughputReport(
                    verifications: count, valid: outcomes.filter { $0.answer?.verdict == .valid }.count,
                    concurrency: concurrency, latency: latency, elapsed: elapsed)
            }
            await simulator.stop()
            return report
        } catch {
            await simulator.stop()
            throw error
        }
    }
}
