import Foundation
import Hummingbird
import HummingbirdTesting
import IAPReconTestSupport
import Logging
import SupportWeb
import Testing

@testable import IAPRecon
@testable import ReconStorage

/// The web view over a store in PostgreSQL (CONTRACT §2 `STORE`): served from another host than the nightly run, the
/// same answers as from a file; a lost server is a 503 for that request, and the next one reconnects.
@Suite struct SupportOnPostgreSQLTests {
    @Test func answersFromPostgreSQLAndALostServerIsA503ThenAReconnect() async throws {
        let server = try ThrowawayPostgres()
        defer { server.destroy() }
        let onFile = try await SupportFixture("web-pg-file")
        let onServer = try await SupportFixture("web-pg", store: server.url())
        #expect(try await onServer.lookupJSON(.user("u9")) == onFile.lookupJSON(.user("u9")))
        let app = SupportServer.makeApplication(
            settings: SupportServerSettings(recon: try onServer.config.validated(), port: 0, token: nil),
            logger: Logger.quiet)
        let expected = try await onFile.answerLine(.user("u9"))
        try await app.test(.router) { client in
            try await client.execute(uri: "/lookup?user=u9", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(expected))
            }
            server.stop()
            try await client.execute(uri: "/lookup?user=u9", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                let body = String(buffer: response.body)
                #expect(body.contains("postgresql://127.0.0.1:\(server.port)/postgres"))
                #expect(!body.contains(server.password))
            }
            try server.start()
            try await client.execute(uri: "/lookup?user=u9", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(expected))
            }
        }
    }
}
