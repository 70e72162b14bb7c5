import ArgumentParser
import Foundation
import IAPRecon
import SupportWeb

struct ServeCommand: AsyncParsableCommand {
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
            """)

    @OptionGroup var store: StoreOptions

    @Option(name: .customLong("host"), help: ArgumentHelp("Address to listen on.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(
        name: .customLong("port"),
        help: ArgumentHelp("Port (0 picks a free one; the URL is printed).", valueName: "port"))
    var port = 8080

    @OptionGroup var options: ConfigOptions

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
    }

    func run() async throws {
        let settings: SupportServerSettings
        do {
            let config = try options.makeConfig(databasePath: store.databasePath)
            settings = SupportServerSettings(
                recon: try config.validated(), host: host, port: port, token: config.serveToken)
        } catch {
            FileHandle.standardError.write(Data("iap-recon: error: \(describe(error))\n".utf8))
            throw ExitCode(ExitStatus.failed.rawValue)
        }
        // A URL's password is never printed.
        let path = ReconConfig.shownStore(store.databasePath)
        do {
            try await SupportServer.run(settings: settings, logger: options.makeLogger()) { url in
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
