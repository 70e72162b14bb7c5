import ArgumentParser
import IAPRecon

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Detect findings and write the reports from the store, without network.",
        discussion: """
            Writes discrepancies.csv, revenue_daily.csv, rejected.csv, reconciliation.xlsx and \
            run.json into --out, and sales_reconciliation.csv when an Apple sales report covers a \
            day that ended by --as-of. The same store and --as-of give byte-identical CSV.
            """
                + EnvironmentHelp.paragraph(EnvironmentHelp.postgres))

    @OptionGroup var store: StoreOptions
    @OptionGroup var reportOptions: ReportOptions
    @OptionGroup var options: ConfigOptions

    func validate() throws { try options.requireStore(store) }

    func run() async throws {
        let configure = { (config: inout ReconConfig) throws in try config.apply(flags: reportOptions.settings) }
        try await execute(options, store: store, opening: .existing, configure: configure) { recon in
            try await recon.report()
        }
    }
}
