import ArgumentParser
import IAPRecon

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "The nightly job: import (if files are given), verify, detect, write reports.",
        discussion: """
            Holds an exclusive lock on the store: a second run at the same time exits 1 at once, \
            naming the holder. Recorded as one run in the store and in run.json. Exit codes: 0 done; \
            1 could not complete; 3 findings at or above --fail-on; 64 usage error.
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var inputs: InputOptions
    @OptionGroup var database: DatabaseSourceOptions
    @OptionGroup var reportOptions: ReportOptions
    @OptionGroup var options: ConfigOptions

    func run() async throws {
        let configure = { (config: inout ReconConfig) throws in
            try reportOptions.apply(to: &config)
            config.strict = inputs.strict
        }
        try await execute(
            options, databasePath: store.databasePath, opening: .createIfAbsent, source: database,
            configure: configure
        ) { recon, source in
            try await recon.nightly(inputs.request, database: source, progress: TerminalProgress.make())
        }
    }
}
