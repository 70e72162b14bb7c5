import ArgumentParser
import IAPRecon

struct AnswerConsumptionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "answer-consumption",
        abstract: "Answer Apple's open consumption requests (Send Consumption Information V2).",
        discussion: """
            A customer asked Apple for a refund, and Apple asks for consumption information within 12 hours \
            (CONSUMPTION_REQUEST). For every request still open before its deadline whose user consented \
            (--consents), sends the ledger's answer once: customerConsented, deliveryStatus, \
            sampleContentProvided, refundPreference. Never twice, never without consent, never after the \
            deadline or once Apple decided. --as-of is "now". Meant for an hourly cron line. Exit 0 done, \
            1 could not run, 3 some answers failed (sent again next run). Secrets: IAP_RECON_API_KEY_FILE, \
            IAP_RECON_API_KEY_ID, IAP_RECON_ISSUER_ID.
            """)

    @OptionGroup var store: StoreOptions

    @Option(
        name: .customLong("as-of"),
        help: ArgumentHelp(
            "\"Now\": deadlines are judged then and an accepted answer is recorded then (ISO 8601 with offset, or "
                + "epoch ms).", valueName: "time"))
    var asOf: String?

    @Flag(name: .customLong("dry-run"), help: "Print what would be sent; send and write nothing.")
    var dryRun = false

    @OptionGroup var options: ConfigOptions

    func validate() throws {
        if let asOf, Timestamp.parse(asOf) == nil {
            throw ValidationError(
                "--as-of '\(asOf)' is not a time: use ISO 8601 with an offset (2026-11-20T00:00:00Z) or epoch milliseconds"
            )
        }
    }

    func run() async throws {
        let dryRun = dryRun
        let asOf = asOf.flatMap(Timestamp.parse)
        let configure = { (config: inout ReconConfig) throws in if let asOf { config.asOf = asOf } }
        try await execute(
            options, databasePath: store.databasePath, opening: .existing, configure: configure
        ) { recon in
            try await recon.answerConsumption(dryRun: dryRun)
        }
    }
}
