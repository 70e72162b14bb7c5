import ArgumentParser
import Foundation
import IAPRecon

/// Reading inputs from the backend's PostgreSQL (CONTRACT §1.7): `--source-db` and one query per input.
///
/// Each flag is a config file key of the same name (``ReconConfig/keys``).
struct DatabaseSourceOptions: SettingFlags {
    @Option(setting: "source-db") var sourceDB: String?
    @Option(setting: "transactions-query") var transactionsQuery: String?
    @Option(setting: "receipts-query") var receiptsQuery: String?
    @Option(setting: "notifications-query") var notificationsQuery: String?
    @Option(setting: "products-query") var productsQuery: String?
    @Option(setting: "entitlements-query") var entitlementsQuery: String?
    @Option(setting: "consents-query") var consentsQuery: String?

    /// Whether any of these flags was given.
    var isEmpty: Bool { settings.allSatisfy { $0.1 == nil } }
}

/// Runs one command that imports: like ``execute(_:store:opening:configure:_:)``, but when a
/// database source is configured, it is connected to and its queries are started *before* the
/// store is opened, so a server that cannot be read creates or changes nothing.
func execute(
    _ options: ConfigOptions, store: StoreOptions, opening: ReconStore.Opening, source: DatabaseSourceOptions,
    configure: (inout ReconConfig) throws -> Void,
    _ command: (ReconDependencies, LedgerDatabase?) async throws -> CommandOutput
) async throws {
    try await execute {
        let config = try options.makeConfig(store: store) { config in
            try config.apply(flags: source.settings)
            try configure(&config)
        }
        let logger = options.makeLogger(config)
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
