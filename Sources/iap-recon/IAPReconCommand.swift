import ArgumentParser
import IAPRecon

/// The executable: parses flags into a configuration; each subcommand builds the library's
/// composition root (``ReconDependencies``) and makes one call.
@main
struct IAPReconCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iap-recon",
        abstract: "Reconcile Apple In-App Purchases: import, verify, detect discrepancies, report.",
        discussion: """
            A nightly batch job. It reads the purchases your backend stored and the receipts clients \
            uploaded, re-verifies pending ones with Apple, finds what is wrong and writes CSV and XLSX \
            reports for finance. Exit codes: 0 done; 1 the job could not complete; 3 done, with findings \
            at or above --fail-on; 64 usage error.
            """
                + EnvironmentHelp.paragraph(
                    EnvironmentHelp.apple + [ReconConfig.serveTokenVariable] + EnvironmentHelp.postgres),
        version: IAPReconVersion.current,
        subcommands: [
            ImportCommand.self, VerifyCommand.self, RunCommand.self, ReportCommand.self, LookupCommand.self,
            ServeCommand.self, DemoCommand.self, SimulatorCommand.self, AnswerConsumptionCommand.self,
        ]
    )

    /// Limits the allocator's arenas (``MallocArenas``), then parses the command line and runs the command.
    static func main() async {
        MallocArenas.limitArenas()
        await main(nil)
    }
}
