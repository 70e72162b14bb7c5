import ArgumentParser
import IAPRecon

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Load transactions, receipts, products and Apple sales reports into the store (idempotent upsert).",
        discussion: """
            Every file is streamed; a malformed row never stops the import and is kept in the store \
            with its file, line and reason (see rejected.csv). Prints read, accepted and rejected per \
            file: read = accepted + rejected. A file that cannot be opened is an error (exit 1).
            """
                + EnvironmentHelp.paragraph(EnvironmentHelp.postgres))

    @OptionGroup var store: StoreOptions
    @OptionGroup var inputs: InputOptions
    @OptionGroup var database: DatabaseSourceOptions
    @OptionGroup var options: ConfigOptions

    func validate() throws {
        try options.requireStore(store)
        if inputs.isEmpty, database.isEmpty, options.configFile == nil {
            throw ValidationError(
                "nothing to import: give --transactions, --receipts, --products, --notifications, --sales-report, "
                    + "--financial-report, --payments or --entitlements, or --source-db with queries")
        }
    }

    func run() async throws {
        try await execute(
            options, store: store, opening: .createIfAbsent, source: database,
            configure: { try $0.apply(flags: inputs.settings) }
        ) { recon, source in
            try await recon.importFiles(recon.settings.config.inputFiles, database: source)
        }
    }
}
