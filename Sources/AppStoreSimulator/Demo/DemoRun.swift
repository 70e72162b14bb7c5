import Foundation
import IAPRecon
import Logging

/// `iap-recon demo`: generate a realistic store, start the App Store simulator on loopback,
/// and run the nightly job against it exactly as production would — same code path; only the
/// base URLs, the trusted root and the credentials differ.
public enum DemoRun {
    /// Options of one demo run.
    public struct Options: Sendable {
        public var outputDirectory: String
        public var seed: UInt64 = 1
        public var purchases = 3_000
        public var asOf = DemoDataset.defaultAsOf

        public init(outputDirectory: String) {
            self.outputDirectory = outputDirectory
        }
    }

    /// Runs the demo; returns the nightly job's outcome, with where everything is.
    public static func run(_ options: Options, logger: Logger, progress: Jobs.Progress? = nil) async throws -> Jobs.Outcome {
        let out = options.outputDirectory
        let inputs = out + "/demo-input"
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        let database = out + "/demo.sqlite"
        for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: database + suffix) }

        logger.info("generating demo data", metadata: ["purchases": "\(options.purchases)", "seed": "\(options.seed)"])
        let dataset = try DemoDataset.generate(seed: options.seed, purchases: options.purchases, asOf: options.asOf)
        let key = SimulatorAPIKey.generate()
        var seed = dataset.seed
        seed.apiKey = key.key
        func write(_ name: String, _ text: String) throws -> String {
            let path = inputs + "/" + name
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let transactions = try write("transactions.csv", dataset.transactions)
        let receipts = try write("receipts.jsonl", dataset.receipts)
        let products = try write("products.csv", dataset.products)
        _ = try write("simulator-seed.json", String(decoding: try encoder.encode(seed), as: UTF8.self))
        let keyFile = try write("AuthKey_\(key.key.keyId).p8", key.privateKeyPEM)
        chmod(keyFile, 0o600)

        var faults: [FaultRule] = [.always(at: nil, .latency(milliseconds: 5))]
        for id in dataset.unreachableTransactionIDs {
            faults.append(.always(at: "/production/inApps/v1/transactions/\(id)", .httpStatus(503, errorCode: nil)))
            faults.append(.always(at: "/sandbox/inApps/v1/transactions/\(id)", .httpStatus(503, errorCode: nil)))
        }
        let simulator = try await AppStoreSimulator.start(seed: seed, faults: FaultPlan(faults))
        let root = try write("simulator-root.pem", simulator.rootCertificatePEM)
        logger.info("App Store simulator listening", metadata: ["url": "\(simulator.baseURL.absoluteString)"])

        var config = ReconConfig(databasePath: database)
        config.outputDirectory = out
        config.asOf = dataset.asOf
        config.bundleIDs = [dataset.bundleID]
        config.trustedRoots = [root]
        config.verifyReceiptURL = simulator.productionBaseURL.appendingPathComponent("verifyReceipt").absoluteString
        config.sandboxVerifyReceiptURL = simulator.sandboxBaseURL.appendingPathComponent("verifyReceipt").absoluteString
        config.serverAPIURL = simulator.productionBaseURL.absoluteString
        config.sandboxServerAPIURL = simulator.sandboxBaseURL.absoluteString
        config.concurrency = 16
        config.requestTimeoutMillis = 2_000
        config.retryAttempts = 3
        config.retryBudgetMillis = 2_000
        config.retryBaseDelayMillis = 50
        config.sharedSecret = DemoDataset.sharedSecret
        config.apiKeyFile = keyFile
        config.apiKeyID = key.key.keyId
        config.issuerID = key.key.issuerId

        let outcome: Jobs.Outcome
        do {
            outcome = try await Jobs.nightly(
                ImportRequest(transactions: [transactions], receipts: [receipts], products: [products]), config: config,
                logger: logger, progress: progress)
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
        var lines = outcome.lines
        lines.append("store: \(database)")
        lines.append("inputs: \(inputs)/ (transactions.csv, receipts.jsonl, products.csv, simulator-seed.json)")
        lines.append("reports: " + ReportJob.fileNames.map { "\(out)/\($0)" }.joined(separator: ", "))
        lines.append("try: iap-recon lookup --db \(database) --user user-paid-nothing-1")
        return Jobs.Outcome(exitCode: outcome.exitCode, lines: lines)
    }
}
