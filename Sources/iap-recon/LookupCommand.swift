import ArgumentParser
import IAPRecon

struct LookupCommand: AsyncParsableCommand, SettingFlags {
    static let configuration = CommandConfiguration(
        commandName: "lookup",
        abstract: "A support agent's view: was this customer charged, and did they get it?",
        discussion: """
            Prints one answer line, then a timeline of every purchase, receipt upload, verification \
            with Apple's answer, delivery, finish, refund and finding for the user or transaction. \
            Works offline from the store; --order-id needs App Store Server API credentials.
            """
                + EnvironmentHelp.paragraph(EnvironmentHelp.serverAPI + EnvironmentHelp.postgres))

    @OptionGroup var store: StoreOptions

    @Option(name: .customLong("user"), help: "An app account id.")
    var user: String?

    @Option(name: .customLong("transaction"), help: "An Apple transaction id.")
    var transaction: String?

    @Option(name: .customLong("original-transaction"), help: "An Apple original transaction id.")
    var originalTransaction: String?

    @Option(name: .customLong("order-id"), help: "The order id from the customer's Apple receipt e-mail.")
    var orderID: String?

    @Option(
        name: .customLong("app-transaction"),
        help: "An Apple appTransactionId: every app account, transaction and finding it links.")
    var appTransaction: String?

    @Option(setting: "format") var format: String?

    @OptionGroup var options: ConfigOptions

    func validate() throws {
        let given = [user, transaction, originalTransaction, orderID, appTransaction].compactMap { $0 }
        guard given.count == 1 else {
            throw ValidationError(
                "give exactly one of --user, --transaction, --original-transaction, --order-id, --app-transaction")
        }
        try options.requireStore(store)
        var config = ReconConfig(databasePath: "")
        try config.apply(flags: settings)
    }

    func run() async throws {
        let subject: LookupSubject
        if let user {
            subject = .user(user)
        } else if let transaction {
            subject = .transaction(transaction)
        } else if let originalTransaction {
            subject = .originalTransaction(originalTransaction)
        } else if let appTransaction {
            subject = .appTransaction(appTransaction)
        } else {
            subject = .order(orderID ?? "", transactionIDs: [])
        }
        let configure = { (config: inout ReconConfig) throws in try config.apply(flags: settings) }
        try await execute(options, store: store, opening: .readOnly, configure: configure) { recon in
            try await recon.lookup(subject, json: recon.settings.config.lookupFormat == "json")
        }
    }
}
