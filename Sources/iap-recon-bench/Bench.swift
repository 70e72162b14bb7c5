import AppStoreSimulator
import Foundation
import IAPRecon
import Logging

/// `make bench`'s Swift half: JWS verifications per second and verifyReceipt throughput against the simulator.
///
/// Detection and the reports are measured through the product's own commands (`iap-recon import` and `report`,
/// `scripts/bench*.sh`), never through a path of their own here.
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
        case "lookups":
            // lookups URL[,URL…] IDS-FILE CLIENTS SECONDS: each line of IDS-FILE a query (`user=u1`).
            let rest = Array(arguments.dropFirst())
            guard rest.count == 4, let clients = Int(rest[2]), let seconds = Double(rest[3]) else {
                print("usage: iap-recon-bench lookups URL[,URL...] IDS-FILE CLIENTS SECONDS")
                return
            }
            let queries = try String(contentsOfFile: rest[1], encoding: .utf8).split(separator: "\n").map(String.init)
            let r = try await LookupLoad.run(
                urls: rest[0].split(separator: ",").map(String.init), queries: queries, clients: clients,
                seconds: seconds)
            print(
                String(
                    format: "%.0f lookups/s (%d in %.1f s, p50 %.1f ms, p99 %.1f ms, %d errors)",
                    Double(r.lookups) / r.seconds, r.lookups, r.seconds, r.p50 * 1000, r.p99 * 1000, r.errors))
        default:
            print("usage: iap-recon-bench jws [count] | verify [count] | verify-stage [count] | lookups …")
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
