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
            """
                + EnvironmentHelp.paragraph(EnvironmentHelp.apple + EnvironmentHelp.postgres))

    @OptionGroup var store: StoreOptions
    @OptionGroup var inputs: InputOptions
    @OptionGroup var database: DatabaseSourceOptions
    @OptionGroup var reportOptions: ReportOptions
    @OptionGroup var options: ConfigOptions

    func validate() throws { try options.requireStore(store) }

    func run() async throws {
        let configure = { (config: inout ReconConfig) throws in
            try config.apply(flags: reportOptions.settings + inputs.settings)
        }
        try await execute(
            options, store: store, opening: .createIfAbsent, source: database, configure: configure
        ) { recon, source in
            try await recon.nightly(
                recon.settings.config.inputFiles, database: source, progress: TerminalProgress.make())
        }
    }
}
