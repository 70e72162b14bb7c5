import AppStoreSimulator
import Foundation
import IAPRecon
import Logging

/// `make bench`'s Swift half: JWS verifications per second, verifyReceipt throughput against the simulator, and
/// detection over a large store.
///
/// Prints one line per figure.
@main
struct Bench {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        switch arguments.first {
        case "jws":
            let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 200_000
            let m = try await JWSBenchmark.run(count: count, tasks: 2)
            print(
                String(
                    format: "JWS verify (one chain, 2 tasks): %.0f/s wall, %.0f/s per CPU-second (%d valid of %d)",
                    m.perSecond, m.perCPUSecond, m.valid, m.count))
        case "verify":
            let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 5_000
            let r = try await AppStoreSimulator.measureVerifyReceiptThroughput(
                verifications: count, concurrency: 32, latency: .milliseconds(50))
            print(
                String(
                    format:
                        "verifyReceipt via simulator (50 ms latency, concurrency 32): %.0f/s of ideal %.0f/s (%.0f%%)",
                    r.perSecond, r.ideal, 100 * r.perSecond / r.ideal))
        case "verify-stage":
            let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 5_000
            try await verifyStage(count: count)
        case "detect":
            // Detection over an existing store: `bench detect STORE`.
            guard let path = arguments.dropFirst().first else { throw CocoaError(.fileNoSuchFile) }
            let store = try ReconStore(path: path)
            let start = Date()
            var config = ReconConfig(databasePath: path)
            config.bundleIDs = ["com.example.app"]
            let context = try config.validated().detectionContext(
                asOf: 1_795_176_000_000, catalog: try store.ledger.catalog())
            let revenue = RevenueTally(
                RevenueBuilder(timeZone: TimeZone(identifier: "UTC") ?? .current, context: context))
            var groups = 0
            var findings: Set<String> = []
            try DetectStage(context: context).run(
                store: store, alongside: revenue.add, each: { _ in groups += 1 },
                found: { findings.insert($0.fingerprint) })
            let seconds = Date().timeIntervalSince(start)
            print(
                String(
                    format: "detection + revenue: %d transaction groups, %d findings, %d revenue rows in %.2f s",
                    groups, findings.count, revenue.builder.rows().count, seconds))
        default:
            print("usage: iap-recon-bench jws [count] | verify [count] | verify-stage [count] | detect STORE")
        }
    }

    /// `iap-recon verify`'s own path (offline decode, verifyReceipt client, one SQLite write per
    /// result) over `count` pending rows, against the simulator at 50 ms latency, concurrency 32.
    static func verifyStage(count: Int) async throws {
        let dir = NSTemporaryDirectory() + "iap-recon-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var ledger = ["record_id,user_id,product_id,transaction_id,purchase_date,verification_status,receipt_id"]
        var receipts: [String] = []
        var transactions: [SimulatorTransaction] = []
        var seeded: [SimulatorReceipt] = []
        for i in 0..<count {
            let id = String(7_000_000 + i)
            let data = Data("bench receipt \(i)".utf8).base64EncodedString()
            ledger.append("r\(i),u\(i),coins,\(id),1795000000000,pending,rc\(i)")
            receipts.append("{\"receipt_id\":\"rc\(i)\",\"format\":\"app-receipt\",\"data\":\"\(data)\"}")
            transactions.append(
                SimulatorTransaction(
                    transactionId: id, productId: "coins", purchaseDate: 1_795_000_000_000, price: 990, currency: "USD")
            )
            seeded.append(SimulatorReceipt(data: data, transactionIds: [id]))
        }
        try Data((ledger.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: dir + "/t.csv"))
        try Data((receipts.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: dir + "/r.jsonl"))
        let simulator = try await AppStoreSimulator.start(
            seed: SimulatorSeed(bundleId: "com.example.app", transactions: transactions, receipts: seeded),
            faults: FaultPlan([.always(at: nil, .latency(milliseconds: 50))]))
        var config = ReconConfig(databasePath: dir + "/s.sqlite")
        config.verifyReceiptURL = simulator.productionBaseURL.appendingPathComponent("verifyReceipt").absoluteString
        config.sandboxVerifyReceiptURL = simulator.sandboxBaseURL.appendingPathComponent("verifyReceipt").absoluteString
        config.concurrency = 32
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let recon = try ReconDependencies(config: config, logger: logger)
        _ = try await recon.importFiles(ImportRequest(transactions: [dir + "/t.csv"], receipts: [dir + "/r.jsonl"]))
        let start = Date()
        let outcome = try await recon.verify()
        let seconds = Date().timeIntervalSince(start)
        await simulator.stop()
        let ideal = 32.0 / 0.050
        print(
            String(
                format:
                    "iap-recon verify via simulator (50 ms latency, --concurrency 32): %d rows in %.2f s = %.0f/s of ideal %.0f/s (%.0f%%) — %@",
                count, seconds, Double(count) / seconds, ideal, 100 * Double(count) / seconds / ideal,
                outcome.lines.first ?? ""))
    }
}

/// Revenue on the detecting thread (only it touches the builder until detection returns).
private final class RevenueTally: @unchecked Sendable {
    var builder: RevenueBuilder

    init(_ builder: RevenueBuilder) {
        self.builder = builder
    }

    @Sendable func add(_ facts: TransactionFacts) {
        builder.add(facts)
    }
}
