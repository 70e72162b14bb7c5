import AppStoreTestSigning
import Foundation
import IAPRecon

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Measures offline JWS verification throughput with one certificate chain, the way a nightly
/// run sees it: many transactions, one signing chain, all cores.
public enum JWSBenchmark {
    /// What one run measured.
    public struct Measurement: Sendable, Hashable, CustomStringConvertible {
        /// JWS verified.
        public var count: Int
        /// How many came out valid (all should).
        public var valid: Int
        /// Concurrent tasks used.
        public var tasks: Int
        /// Wall-clock seconds for the verification phase.
        public var seconds: Double
        /// CPU seconds the process used in that phase (all threads).
        public var cpuSeconds: Double

        /// Verifications per wall-clock second.
        public var perSecond: Double { seconds > 0 ? Double(count) / seconds : 0 }

        /// Verifications per CPU second: what one dedicated core achieves, whatever else the
        /// machine is running.
        public var perCPUSecond: Double { cpuSeconds > 0 ? Double(count) / cpuSeconds : 0 }

        public var description: String {
            let rate = Int(perSecond.rounded())
            let perCore = Int(perCPUSecond.rounded())
            return "\(count) JWS verified (\(valid) valid) in \(String(format: "%.3f", seconds)) s wall, "
                + "\(String(format: "%.3f", cpuSeconds)) s CPU on \(tasks) tasks: \(rate) JWS/s wall, \(perCore) JWS per CPU-second"
        }
    }

    /// Signs `distinct` transactions with a test authority, then verifies `count` of them
    /// (cycling) on `tasks` concurrent tasks with one shared verifier.
    ///
    /// - Parameters:
    ///   - count: verifications to time.
    ///   - tasks: concurrent tasks; defaults to the number of active cores.
    ///   - distinct: distinct JWS to cycle through.
    /// - Throws: only if the test authority cannot be built or a payload cannot be signed.
    public static func run(count: Int, tasks: Int? = nil, distinct: Int = 512) async throws -> Measurement {
        let authority = try SigningAuthority()
        let trust = TrustStore(roots: [authority.root])
        let verifier = SignedDataVerifier(
            trust: trust, expectedBundleIDs: ["com.example.bench"], expectedEnvironment: .production)
        var tokens: [String] = []
        for index in 0..<max(1, distinct) {
            let payload = JWSTransactionDecodedPayload(
                transactionId: String(2_000_000_000 + index), originalTransactionId: String(2_000_000_000 + index),
                bundleId: "com.example.bench", productId: "com.example.bench.coins", purchaseDate: 1_767_225_600_000,
                quantity: 1, type: "Consumable", inAppOwnershipType: "PURCHASED", signedDate: 1_767_225_600_000,
                environment: "Production", storefront: "USA", storefrontId: "143441", transactionReason: "PURCHASE",
                price: 990, currency: "USD")
            tokens.append(try JWSSigner.sign(payload: payload, authority: authority))
        }
        let allTokens = tokens
        let taskCount = max(1, tasks ?? ProcessInfo.processInfo.activeProcessorCount)
        // Warm the chain cache so the figure is the steady state.
        _ = await verifier.verifyAndDecodeTransaction(allTokens[0])

        let clock = ContinuousClock()
        let cpuStart = processCPUSeconds()
        let start = clock.now
        let valid = await withTaskGroup(of: Int.self) { group in
            for task in 0..<taskCount {
                let share = count / taskCount + (task < count % taskCount ? 1 : 0)
                group.addTask {
                    var ok = 0
                    for index in 0..<share {
                        let token = allTokens[(index * taskCount + task) % allTokens.count]
                        if case .valid = await verifier.verifyAndDecodeTransaction(token) { ok += 1 }
                    }
                    return ok
                }
            }
            return await group.reduce(0, +)
        }
        let elapsed = clock.now - start
        let cpuSeconds = processCPUSeconds() - cpuStart
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Measurement(count: count, valid: valid, tasks: taskCount, seconds: seconds, cpuSeconds: cpuSeconds)
    }

    /// CPU time used by this process so far, in seconds.
    static func processCPUSeconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
