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
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var inputs: InputOptions
    @OptionGroup var database: DatabaseSourceOptions
    @OptionGroup var options: ConfigOptions

    func validate() throws {
        if inputs.request.isEmpty, database.isEmpty, options.configFile == nil {
            throw ValidationError(
                "nothing to import: give --transactions, --receipts, --products, --notifications, --sales-report, "
                    + "--financial-report, --payments or --entitlements, or --source-db with queries")
        }
    }

    func run() async throws {
        let strict = inputs.strict
        try await execute(
            options, databasePath: store.databasePath, opening: .createIfAbsent, source: database,
            configure: { $0.strict = strict }
        ) { recon, source in
            try await recon.importFiles(inputs.request, database: source)
        }
    }
}
