import Foundation
import Hummingbird
import HummingbirdTesting
import IAPRecon
import Logging
import Synchronization
import Testing

@testable import SupportWeb

/// CONTRACT §6 security: loopback by default, a token everywhere else, Bearer or a login cookie
/// (HttpOnly, SameSite=Strict), and the token never shown or logged.
@Suite struct SupportSecurityTests {
    static let token = "s3cret-token-for-tests-0123456789"

    @Test(
        arguments: [
            ("127.0.0.1", nil, nil),
            ("::1", nil, nil),
            ("localhost", nil, nil),
            ("127.0.0.2", nil, nil),
            ("0.0.0.0", nil, ServeError.tokenRequired(host: "0.0.0.0")),
            ("127.attacker.example", nil, .tokenRequired(host: "127.attacker.example")),
            ("192.168.1.20", nil, .tokenRequired(host: "192.168.1.20")),
            ("0.0.0.0", "short", .weakToken(minimum: 16)),
            ("0.0.0.0", token, nil),
        ] as [(String, String?, ServeError?)])
    func anotherAddressNeedsAToken(host: String, token: String?, expected: ServeError?) throws {
        let settings = SupportServerSettings(
            recon: try ReconConfig(databasePath: "unused.sqlite").validated(), host: host, token: token)
        if let expected {
            #expect(throws: expected) { try settings.validate() }
        } else {
            try settings.validate()
        }
    }

    @Test func everyRequestNeedsTheTokenAndNothingShowsOrLogsIt() async throws {
        let fixture = try await SupportFixture("web-token")
        let lines = LogLines()
        var logger = Logger(label: "serve") { _ in LogLinesHandler(lines: lines) }
        logger.logLevel = .trace
        let app = SupportServer.makeApplication(
            settings: SupportServerSettings(recon: try fixture.config.validated(), port: 0, token: Self.token),
            logger: logger)
        try await app.test(.router) { client in
            // No credentials: the login form for a page, 401 for the API.
            try await client.execute(uri: "/lookup?user=u9", method: .get) { response in
                #expect(response.status == .unauthorized)
                let body = String(buffer: response.body)
                #expect(body.contains("<form class=\"search\" method=\"post\" action=\"/login\">"))
                #expect(body.contains("value=\"/lookup?user=u9\""))
                #expect(!body.contains("charged"))
            }
            try await client.execute(uri: "/api/lookup?user=u9", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate] == "Bearer")
            }
            // A wrong token, a token of another length, another scheme: refused.
            for header in ["Bearer wrong", "Bearer \(Self.token)x", "Basic \(Self.token)", Self.token] {
                try await client.execute(uri: "/api/lookup?user=u9", method: .get, headers: [.authorization: header]) {
                    #expect($0.status == .unauthorized, "\(header)")
                }
            }
            // Bearer.
            try await client.execute(
                uri: "/api/lookup?user=u9", method: .get, headers: [.authorization: "Bearer \(Self.token)"]
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("\"answer\" : \"user u9: charged for 1 purchase"))
            }
            // The login form: a wrong token is refused without a cookie.
            try await client.execute(
                uri: "/login", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "token=nope&next=%2Flookup%3Fuser%3Du9")
            ) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.setCookie] == nil)
                #expect(String(buffer: response.body).contains("That token is not right."))
            }
            // The right token sets an HttpOnly, SameSite=Strict cookie that is not the token.
            let cookie = try await client.execute(
                uri: "/login", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "token=\(Self.token)&next=%2Flookup%3Fuser%3Du9")
            ) { response -> String in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/lookup?user=u9")
                let setCookie = try #require(response.headers[.setCookie])
                #expect(setCookie.contains("HttpOnly"))
                #expect(setCookie.contains("SameSite=Strict"))
                #expect(!setCookie.contains(Self.token))
                return String(setCookie.prefix { $0 != ";" })
            }
            try await client.execute(uri: "/lookup?user=u9", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .ok)
                let body = String(buffer: response.body)
                #expect(body.contains("user u9: charged for 1 purchase"))
                #expect(!body.contains(Self.token))
            }
            try await client.execute(
                uri: "/lookup?user=u9", method: .get, headers: [.cookie: "iap_recon_session=\(Self.token)"]
            ) { #expect($0.status == .unauthorized, "the token itself is not a session") }
            // After login, only a local path: never another site.
            for next in ["https://evil.example/", "//evil.example/", "/\\evil.example"] {
                try await client.execute(
                    uri: "/login", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "token=\(Self.token)&next=\(HTML.queryValue(next))")
                ) { #expect($0.headers[.location] == "/", "\(next)") }
            }
        }
        let logged = lines.all.joined(separator: "\n")
        #expect(logged.contains("path=/api/lookup"), "requests are logged")
        #expect(logged.contains("status=401"))
        #expect(!logged.contains(Self.token), "the token never reaches a log")
        #expect(!logged.contains("u9"), "nor the query with the customer's id")
    }

    @Test(arguments: [("a", "a", true), ("a", "b", false), ("ab", "a", false), ("", "", true)])
    func constantTimeEqualCompares(a: String, b: String, equal: Bool) {
        #expect(AccessToken.constantTimeEqual(Array(a.utf8), Array(b.utf8)) == equal)
    }
}

/// Collects log lines (message and metadata) for assertions.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

struct LogLinesHandler: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let pairs = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        lines.append("\(event.level) \(event.message) \(pairs)")
    }
}
