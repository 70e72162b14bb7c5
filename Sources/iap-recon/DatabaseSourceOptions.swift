import ArgumentParser
import Foundation
import IAPRecon

/// Reading inputs from the backend's PostgreSQL (SPEC §1.7): `--source-db` and one query per input.
struct DatabaseSourceOptions: ParsableArguments {
    @Option(
        name: .customLong("source-db"),
        help: ArgumentHelp(
            "The backend's PostgreSQL to read inputs from: postgresql://USER[:PASSWORD]@HOST[:PORT]/DB"
                + "[?sslmode=disable|require|verify-full] (password also from PGPASSWORD).",
            valueName: "url"))
    var url: String?

    @Option(
        name: .customLong("transactions-query"),
        help: ArgumentHelp(
            "SQL (or @FILE) whose rows are ledger transactions, read from --source-db.", valueName: "sql"))
    var transactionsQuery: String?

    @Option(
        name: .customLong("receipts-query"),
        help: ArgumentHelp("SQL (or @FILE) whose rows are uploaded receipts, read from --source-db.", valueName: "sql"))
    var receiptsQuery: String?

    @Option(
        name: .customLong("notifications-query"),
        help: ArgumentHelp(
            "SQL (or @FILE) whose rows are stored App Store Server Notifications (signedPayload, received_at).",
            valueName: "sql"))
    var notificationsQuery: String?

    @Option(
        name: .customLong("products-query"),
        help: ArgumentHelp(
            "SQL (or @FILE) whose rows are the product catalog, read from --source-db.", valueName: "sql"))
    var productsQuery: String?

    /// Whether any of these flags was given.
    var isEmpty: Bool { config.isEmpty }

    /// The flags as a config layer.
    var config: DatabaseSourceConfig {
        var config = DatabaseSourceConfig()
        config.url = url
        config.transactionsQuery = transactionsQuery
        config.receiptsQuery = receiptsQuery
        config.notificationsQuery = notificationsQuery
        config.productsQuery = productsQuery
        return config
    }
}

/// Runs one command that imports: like ``execute(_:databasePath:opening:configure:_:)``, but when a
/// database source is configured, it is connected to and its queries are started *before* the
/// store is opened, so a server that cannot be read creates or changes nothing.
func execute(
    _ options: ConfigOptions, databasePath: String, opening: ReconStore.Opening, source: DatabaseSourceOptions,
    configure: (inout ReconConfig) -> Void,
    _ command: (ReconDependencies, LedgerDatabase?) async throws -> CommandOutput
) async throws {
    try await execute {
        var config = try options.makeConfig(databasePath: databasePath)
        config.databaseSource.merge(source.config)
        configure(&config)
        let logger = options.makeLogger()
        let environment = ProcessInfo.processInfo.environment
        guard let settings = try config.databaseSource.validated(environment: environment) else {
            return try await command(try ReconDependencies(config: config, logger: logger, opening: opening), nil)
        }
        let database = try await LedgerDatabase.open(settings, logger: logger)
        do {
            let output = try await command(
                try ReconDependencies(config: config, logger: logger, opening: opening), database)
            await database.close()
            return output
        } catch {
            await database.close()
            throw error
        }
    }
}
