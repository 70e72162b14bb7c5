import ArgumentParser
import IAPRecon

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Load transactions, receipts and products into the store (idempotent upsert).",
        discussion: """
            Every file is streamed; a malformed row never stops the import and is kept in the store \
            with its file, line and reason (see rejected.csv). Prints read, accepted and rejected per \
            file: read = accepted + rejected. A file that cannot be opened is an error (exit 1).
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var inputs: InputOptions
    @OptionGroup var options: ConfigOptions

    func validate() throws {
        if inputs.request.isEmpty {
            throw ValidationError("nothing to import: give --transactions, --receipts, --products or --notifications")
        }
    }

    func run() async throws {
        var config = try options.makeConfig(databasePath: store.databasePath)
        config.strict = inputs.strict
        let logger = options.makeLogger()
        try await runAsyncJob { try await Jobs.importAll(inputs.request, config: config, logger: logger) }
    }
}
