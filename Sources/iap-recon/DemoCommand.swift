import AppStoreSimulator
import ArgumentParser
import Foundation
import IAPRecon
import Logging
import ReconDemo

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Generate sample data, start the App Store simulator on loopback, run the nightly job against it.",
        discussion: """
            The data holds thousands of purchases over 30 days (USD, EUR, JPY storefronts; all four \
            product types; all three receipt formats) with every finding code injected, and Apple's \
            sales reports, Financial Reports and payment summary, so the month close has something to \
            find. Nothing leaves 127.0.0.1. Deterministic for a --seed.
            """
                + EnvironmentHelp.paragraph(EnvironmentHelp.postgres))

    @Option(name: .customLong("out"), help: ArgumentHelp("Folder for the store, inputs and reports.", valueName: "dir"))
    var outputDirectory = "reports"

    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The store: demo.sqlite in --out, made anew, by default; or a path or postgresql:// URL the demo's "
                + "import fills.", valueName: "store"))
    var store: String?

    @Option(name: .customLong("seed"), help: "Random seed of the generated data.")
    var seed: UInt64 = 1

    @Option(name: .customLong("purchases"), help: "Clean purchases to generate (anomalies come on top).")
    var purchases = 3_000

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error, critical.")
    var logLevel = "warning"

    func validate() throws {
        guard (10...1_000_000).contains(purchases) else {
            throw ValidationError("--purchases must be from 10 to 1000000")
        }
    }

    func run() async throws {
        var logger = Logger(label: "iap-recon") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .warning
        var options = DemoRun.Options(outputDirectory: outputDirectory)
        options.seed = seed
        options.purchases = purchases
        options.store = store
        options.program = DemoRun.programName(CommandLine.arguments.first)
        try await execute { try await DemoRun.run(options, logger: logger, progress: TerminalProgress.make()) }
    }
}
