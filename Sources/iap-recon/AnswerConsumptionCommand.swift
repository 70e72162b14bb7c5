import ArgumentParser
import IAPRecon

struct AnswerConsumptionCommand: AsyncParsableCommand, SettingFlags {
    static let configuration = CommandConfiguration(
        commandName: "answer-consumption",
        abstract: "Answer Apple's open consumption requests (Send Consumption Information V2).",
        discussion: """
            A customer asked Apple for a refund, and Apple asks for consumption information within 12 hours \
            (CONSUMPTION_REQUEST). For every request still open before its deadline whose user consented \
            (--consents), sends the ledger's answer once: customerConsented, deliveryStatus, \
            sampleContentProvided, refundPreference. Never twice, never without consent, never after the \
            deadline or once Apple decided. --as-of is "now". Meant for an hourly cron line. Exit 0 done, \
            1 could not run, 3 some answers failed (sent again next run).
            """
                + EnvironmentHelp.paragraph(EnvironmentHelp.serverAPI + EnvironmentHelp.postgres))

    @OptionGroup var store: StoreOptions
    @Option(setting: "as-of") var asOf: String?
    @Flag(setting: "dry-run") var dryRun = false
    @OptionGroup var options: ConfigOptions

    func validate() throws {
        try options.requireStore(store)
        var config = ReconConfig(databasePath: "")
        try config.apply(flags: settings)
    }

    func run() async throws {
        let configure = { (config: inout ReconConfig) throws in try config.apply(flags: settings) }
        try await execute(options, store: store, opening: .existing, configure: configure) { recon in
            try await recon.answerConsumption(dryRun: recon.settings.config.consumptionDryRun)
        }
    }
}
