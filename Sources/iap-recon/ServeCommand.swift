import ArgumentParser
import Foundation
import IAPRecon
import SupportWeb

struct ServeCommand: AsyncParsableCommand, SettingFlags {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "The support web view: look up a user, transaction or order id in a browser.",
        discussion: """
            Serves the same answer and timeline as `lookup` as web pages (and GET /api/lookup as its \
            JSON), from the store opened read-only: it never changes the store and keeps answering \
            while a nightly run holds the lock. Listens on 127.0.0.1:8080 by default. On any other \
            address it refuses to start without IAP_RECON_SERVE_TOKEN (at least 16 characters); with a \
            token, every request must carry it (Authorization: Bearer, or the login form's cookie). \
            Stops gracefully on SIGTERM or Ctrl-C.
            """
                + EnvironmentHelp.paragraph(
                    [ReconConfig.serveTokenVariable] + EnvironmentHelp.serverAPI + EnvironmentHelp.postgres))

    @OptionGroup var store: StoreOptions

    @Option(setting: "host") var host: String?
    @Option(setting: "port") var port: String?

    @OptionGroup var options: ConfigOptions

    func validate() throws {
        try options.requireStore(store)
        var config = ReconConfig(databasePath: "")
        try config.apply(flags: settings)
    }

    func run() async throws {
        let server: SupportServerSettings
        let config: ReconConfig
        do {
            config = try options.makeConfig(store: store) { try $0.apply(flags: settings) }
            server = SupportServerSettings(
                recon: try config.validated(), host: config.serveHost, port: config.servePort,
                token: config.serveToken)
        } catch {
            FileHandle.standardError.write(Data("iap-recon: error: \(describe(error))\n".utf8))
            throw ExitCode(ExitStatus.failed.rawValue)
        }
        // A URL's password is never printed.
        let path = ReconConfig.shownStore(config.databasePath)
        do {
            try await SupportServer.run(settings: server, logger: options.makeLogger(config)) { url in
                // Unbuffered: a supervisor or test reading the pipe sees the URL at once.
                FileHandle.standardOutput.write(
                    Data("serving \(url) from \(path) (read-only); stop with SIGTERM or Ctrl-C\n".utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("iap-recon: error: \(describe(error))\n".utf8))
            throw ExitCode(ExitStatus.failed.rawValue)
        }
    }
}
