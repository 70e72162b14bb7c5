import ArgumentParser
import IAPRecon

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Re-verify every pending transaction with Apple; results persisted one by one.",
        discussion: """
            Decodes every receipt offline first (evidence for the whole ledger), then: a StoreKit 2 \
            JWS is settled by its signature and chain; app and iOS 6 receipts by verifyReceipt \
            (production first, 21007 → sandbox); rows without a receipt by Get Transaction Info when \
            App Store Server API credentials are set. Apple unreachable leaves a row pending, never \
            invalid. A killed run loses nothing; a rerun does not verify a settled row again.
            """
                + EnvironmentHelp.paragraph(EnvironmentHelp.apple + EnvironmentHelp.postgres))

    @OptionGroup var store: StoreOptions
    @OptionGroup var options: ConfigOptions

    func validate() throws { try options.requireStore(store) }

    func run() async throws {
        try await execute(options, store: store, opening: .existing) { recon in
            try await recon.verify(progress: TerminalProgress.make())
        }
    }
}
