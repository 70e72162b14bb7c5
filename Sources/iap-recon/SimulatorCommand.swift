import AppStoreSimulator
import ArgumentParser
import Foundation
import IAPRecon
import Logging

struct SimulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulator",
        abstract: "Run the App Store simulator (verifyReceipt and the Server API) on 127.0.0.1.",
        discussion: """
            Serves /production/... and /sandbox/... base URLs with Apple's semantics, answering from a \
            seed file (see docs/simulator.md). Signs its answers with a test CA generated at start. Runs until \
            SIGTERM or SIGINT. For tests and demos only.
            """
                + EnvironmentHelp.paragraph([]))

    @Option(name: .customLong("port"), help: "Port on 127.0.0.1 (0 picks a free one and logs it).")
    var port = 0

    @Option(
        name: .customLong("seed"),
        help: ArgumentHelp("Seed file (JSON): transactions and receipts Apple knows.", valueName: "file"))
    var seedFile: String

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
    }

    func run() async throws {
        let logger = Logger(label: "iap-recon.simulator") { StreamLogHandler.standardError(label: $0) }
        try await execute {
            try await AppStoreSimulator.run(port: port, seedFile: seedFile, logger: logger)
            return CommandOutput(.done, lines: [])
        }
    }
}
