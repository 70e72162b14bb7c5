import AppStoreSimulator
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
        /// The store: `demo.sqlite` in the output folder (made anew) when nil, else the one named (a `postgresql://`
        /// URL too), which the demo's import fills as any import would.
        public var store: String?
        /// How the lines it prints name this program, so that they work pasted as printed: `iap-recon` when it is
        /// on `PATH`, else the path it was started by (`./.build/debug/iap-recon`).
        public var program = "iap-recon"

        public init(outputDirectory: String) {
            self.outputDirectory = outputDirectory
        }
    }

    static func write(_ directory: String, _ name: String, _ text: String) throws -> String {
        let path = directory + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Starts the simulator for `dataset` (its seed, a generated Server API key, the dataset's unreachable
    /// transactions failing with 503, 5 ms latency) and returns it with the configuration that points the real job at
    /// it.
    ///
    /// Writes the seed, the `.p8` key and the simulator's root certificate into `inputDirectory`.
    public static func startSimulator(
        for dataset: DemoDataset, databasePath: String, outputDirectory: String, inputDirectory: String,
        extraFaults: [FaultRule] = []
    ) async throws -> (AppStoreSimulator, ReconConfig) {
        let key = SimulatorAPIKey.generate()
        var seed = dataset.seed
        seed.apiKey = key.key
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        _ = try write(inputDirectory, "simulator-seed.json", String(decoding: try encoder.encode(seed), as: UTF8.self))
        let keyFile = try write(inputDirectory, "AuthKey_\(key.key.keyId).p8", key.privateKeyPEM)
        chmod(keyFile, 0o600)
        var faults: [FaultRule] = extraFaults + [.always(at: nil, .latency(milliseconds: 5))]
        for id in dataset.unreachableTransactionIDs {
            faults.append(.always(at: "/production/inApps/v1/transactions/\(id)", .httpStatus(503, errorCode: nil)))
            faults.append(.always(at: "/sandbox/inApps/v1/transactions/\(id)", .httpStatus(503, errorCode: nil)))
        }
        let simulator = try await AppStoreSimulator.start(seed: seed, faults: FaultPlan(faults))
        let root = try write(inputDirectory, "simulator-root.pem", simulator.rootCertificatePEM)
        var config = ReconConfig(databasePath: databasePath)
        config.outputDirectory = outputDirectory
        config.asOf = dataset.asOf
        config.bundleIDs = [dataset.bundleID]
        config.trustedRoots = [root]
        config.verifyReceiptURL = simulator.productionBaseURL.appendingPathComponent("verifyReceipt").absoluteString
        config.sandboxVerifyReceiptURL = simulator.sandboxBaseURL.appendingPathComponent("verifyReceipt").absoluteString
        config.serverAPIURL = simulator.productionBaseURL.absoluteString
        config.sandboxServerAPIURL = simulator.sandboxBaseURL.absoluteString
        config.concurrency = 16
        config.requestTimeoutMillis = 10_000
        config.retryAttempts = 3
        config.retryBudgetMillis = 15_000
        config.retryBaseDelayMillis = 50
        config.sharedSecret = DemoDataset.sharedSecret
        config.apiKeyFile = keyFile
        config.apiKeyID = key.key.keyId
        config.issuerID = key.key.issuerId
        return (simulator, config)
    }

    /// Runs the demo; returns the nightly job's outcome, with where everything is.
    public static func run(
        _ options: Options, logger: Logger, progress: RunProgress? = nil
    ) async throws -> CommandOutput {
        let out = options.outputDirectory
        let inputs = out + "/demo-input"
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        let database = options.store ?? out + "/demo.sqlite"
        if options.store == nil {
            for suffix in ["", "-wal", "-shm", ".lock"] {
                try? FileManager.default.removeItem(atPath: database + suffix)
            }
        }
        // How the lines below name the store: a URL without its password.
        let shown = ReconConfig.shownStore(database)

        logger.info("generating demo data", metadata: ["purchases": "\(options.purchases)", "seed": "\(options.seed)"])
        let dataset = try DemoDataset.generate(seed: options.seed, purchases: options.purchases, asOf: options.asOf)
        let (simulator, simulatorConfig) = try await startSimulator(
            for: dataset, databasePath: database, outputDirectory: out, inputDirectory: inputs)
        let transactions = try write(inputs, "transactions.csv", dataset.transactions)
        let receipts = try write(inputs, "receipts.jsonl", dataset.receipts)
        let products = try write(inputs, "products.csv", dataset.products)
        let entitlements = try write(inputs, "entitlements.csv", dataset.entitlements)
        let consents = try write(inputs, "consents.csv", dataset.consents)
        let notifications = try write(inputs, "notifications.jsonl", dataset.notifications)
        let salesReports = try dataset.writeSalesReports(into: inputs)
        let finance = try dataset.writeFinancialReports(into: inputs)
        var config = simulatorConfig
        config.salesReportTimeZone = DemoDataset.salesReportTimeZone
        logger.info("App Store simulator listening", metadata: ["url": "\(simulator.baseURL.absoluteString)"])

        var outcome: CommandOutput
        do {
            outcome = try await ReconDependencies(config: config, logger: logger).nightly(
                ImportRequest(
                    transactions: [transactions], receipts: [receipts], products: [products],
                    salesReports: salesReports, notifications: [notifications],
                    financialReports: finance.reports, payments: finance.payments, entitlements: [entitlements],
                    consents: [consents]),
                progress: progress)
            // The hourly line after the night: answer Apple's open consumption requests, then report again.
            let answered = try await ReconDependencies(config: config, logger: logger).answerConsumption(dryRun: false)
            let reported = try await ReconDependencies(config: config, logger: logger).report()
            outcome = CommandOutput(
                reported.status,
                lines: outcome.lines + answered.lines.map { "answer-consumption: " + $0 }
                    + reported.lines)
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
        var lines = outcome.lines
        lines.append("store: \(shown)")
        let financeInputs = (finance.reports + finance.payments).map { URL(fileURLWithPath: $0).lastPathComponent }
        lines.append(
            "inputs: \(inputs)/ ("
                + ([
                    "transactions.csv", "receipts.jsonl", "products.csv", "entitlements.csv", "consents.csv",
                    "notifications.jsonl", "simulator-seed.json",
                    "S_D_*.txt.gz",
                ]
                + financeInputs).joined(separator: ", ") + ")")
        let reports =
            ReportStage.fileNames + [ReportStage.salesFileName, ReportStage.subscriptionsFileName]
            + ReportStage.monthCloseFileNames
        lines.append("reports: " + reports.map { "\(out)/\($0)" }.joined(separator: ", "))
        lines += hints(program: options.program, store: shown)
        return CommandOutput(outcome.status, lines: lines)
    }
}
