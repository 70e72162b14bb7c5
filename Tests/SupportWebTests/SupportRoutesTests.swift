import Foundation
import Hummingbird
import HummingbirdTesting
import IAPReconTestSupport
import Logging
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconLookup
@testable import ReconModel
@testable import ReconReports
@testable import ReconStorage
@testable import ReconVerify
@testable import SupportWeb

/// The support web view in-process (CONTRACT §6): the search form, the answer page, the JSON API,
/// escaping, time zones, and reading while a nightly run writes.
@Suite struct SupportRoutesTests {
    let quiet = Logger.quiet

    func app(_ fixture: SupportFixture, token: String? = nil, logger: Logger? = nil) throws -> some ApplicationProtocol
    {
        SupportServer.makeApplication(
            settings: SupportServerSettings(recon: try fixture.config.validated(), port: 0, token: token),
            logger: logger ?? quiet)
    }

    @Test func rootIsASearchFormForEveryKindOfSubject() async throws {
        let fixture = try await SupportFixture("web-root")
        try await app(fixture).test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let body = String(buffer: response.body)
                #expect(body.contains("<form class=\"search\" method=\"get\" action=\"/lookup\">"))
                for name in ["user", "transaction", "original_transaction", "order_id", "tz"] {
                    #expect(body.contains("name=\"\(name)\""), "\(name)")
                }
                #expect(!body.contains("<script"))
                #expect(!body.contains("http://") && !body.contains("https://"), "nothing fetched from elsewhere")
                #expect(response.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'none'") == true)
            }
        }
    }

    @Test func paidNothingUserReadsChargedNeverDeliveredWithTheReceipt() async throws {
        let fixture = try await SupportFixture("web-paid-nothing")
        let expected = try await fixture.answerLine(.user("u9"))
        #expect(expected.hasPrefix("user u9: charged for 1 purchase, delivered 0 of 1; NOT DELIVERED: t9"))
        try await app(fixture).test(.router) { client in
            try await client.execute(uri: "/lookup?user=u9", method: .get) { response in
                #expect(response.status == .ok)
                let body = String(buffer: response.body)
                #expect(body.contains("<p class=\"answer-line\" id=\"answer\">\(expected)</p>"))
                #expect(body.contains("<section class=\"answer alert\">"))
                // The open finding with severity and amount, and the receipt Apple confirmed.
                #expect(body.contains("<td class=\"sev-critical\">critical</td><td>MISSING_RECORD</td>"))
                #expect(body.contains("receipt rc9 uploaded by u9"))
                #expect(body.contains("verifyReceipt status 0, Production: valid"))
                // Links between subjects.
                #expect(body.contains("<a href=\"/lookup?transaction=t9&amp;tz=UTC\">t9</a>"))
                #expect(body.contains("<a href=\"/lookup?user=u9&amp;tz=UTC\">u9</a>"))
            }
        }
    }

    @Test(arguments: [
        ("/api/lookup?user=u9", LookupSubject.user("u9")),
        ("/api/lookup?transaction=t5", .transaction("t5")),
        ("/api/lookup?original_transaction=t5", .originalTransaction("t5")),
        ("/api/lookup?user=nobody", .user("nobody")),
        ("/api/lookup?user=%3Cb%20onmouseover%3Dalert(1)%3Eeve%3C%2Fb%3E", .user(SupportFixture.markupUser)),
    ])
    func apiIsTheJSONOfLookup(uri: String, subject: LookupSubject) async throws {
        let fixture = try await SupportFixture("web-api")
        let expected = try await fixture.lookupJSON(subject)
        try await app(fixture).test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(String(buffer: response.body) == expected)
            }
        }
    }

    @Test func markupInIdsIsShownAsText() async throws {
        let fixture = try await SupportFixture("web-escape")
        let uri = "/lookup?user=" + HTML.queryValue(SupportFixture.markupUser) + "&tz=" + HTML.queryValue("\"><script>")
        try await app(fixture).test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok)
                let body = String(buffer: response.body)
                #expect(body.contains("&lt;b onmouseover=alert(1)&gt;eve&lt;/b&gt;"))
                #expect(body.contains("&lt;img src=x onerror=alert(2)&gt;"))
                #expect(body.contains("&quot;&gt;&lt;script&gt;"))
                #expect(!body.contains(SupportFixture.markupUser))
                #expect(!body.contains(SupportFixture.markupProduct))
                #expect(!body.contains("<script"))
                #expect(!body.contains("<b "))
                #expect(!body.contains("<img"))
                // The unknown zone is named (escaped) and UTC used.
                #expect(body.contains("Unknown time zone"))
                #expect(body.contains("(times in UTC)"))
            }
        }
    }

    @Test(arguments: [
        ("UTC", "2026-11-18 11:07:40 +00:00"),
        ("America/Los_Angeles", "2026-11-18 03:07:40 -08:00"),
        ("Asia/Tokyo", "2026-11-18 20:07:40 +09:00"),
    ])
    func timelineInTheViewersTimeZone(zone: String, receiptTime: String) async throws {
        let fixture = try await SupportFixture("web-tz")
        try await app(fixture).test(.router) { client in
            try await client.execute(uri: "/lookup?user=u9&tz=" + HTML.queryValue(zone), method: .get) { response in
                let body = String(buffer: response.body)
                #expect(body.contains("(times in \(zone))"))
                #expect(body.contains("<td class=\"time\">\(receiptTime)</td><td>receipt</td>"), "\(zone)")
            }
        }
    }

    @Test(arguments: [
        ("/lookup?user=u9&transaction=t5", 400, "give exactly one of"),
        ("/lookup?order_id=MQ123", 400, "App Store Server API credentials"),
        ("/api/lookup?order_id=MQ123", 400, "App Store Server API credentials"),
        ("/api/lookup", 400, "give one of"),
    ])
    func questionsItCannotAnswerSayWhy(uri: String, status: Int, message: String) async throws {
        let fixture = try await SupportFixture("web-bad")
        try await app(fixture).test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(Int(response.status.code) == status)
                #expect(String(buffer: response.body).contains(message))
            }
        }
    }

    @Test func aStoreRemovedAfterStartIsA503NamingIt() async throws {
        let fixture = try await SupportFixture("web-gone")
        try await app(fixture).test(.router) { client in
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: fixture.config.databasePath + suffix)
            }
            try await client.execute(uri: "/api/lookup?user=u9", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains("no store at \(fixture.config.databasePath)"))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.config.databasePath), "reading never creates a store")
    }

    /// A nightly run holds the lock and is mid-transaction: the page answers at once from the
    /// last committed state, and shows the run's rows as soon as it commits.
    @Test func keepsAnsweringWhileANightlyRunWritesAndShowsTheLatestCommit() async throws {
        let fixture = try await SupportFixture("web-live")
        let t0 = SupportFixture.t0
        let lock = try RunLock(storePath: fixture.config.databasePath, holder: "iap-recon run (test)")
        let writer = try ReconStore(path: fixture.config.databasePath)
        try writer.ledgerImport.beginBatch()
        try writer.ledgerImport.writer(bulk: false).upsert(
            LedgerTransaction(
                recordID: "r9", userID: "u9", productID: "premium", transactionID: "t9", originalTransactionID: "t9",
                purchaseDate: t0 + 50_000, quantity: 1, environment: .production,
                price: Money(milliunits: 9_990, currency: "USD"), verificationStatus: .verified,
                deliveredAt: t0 + 55_000, finishedAt: nil, receiptID: "rc9"),
            source: "nightly.csv", line: 2)
        let run = NightlyWriter(writer)
        try await app(fixture).test(.router) { client in
            let started = ContinuousClock.now
            try await client.execute(uri: "/api/lookup?user=u9", method: .get) { response in
                #expect(response.status == .ok)
                let body = String(buffer: response.body)
                #expect(body.contains("delivered 0 of 1"), "the uncommitted row is not visible")
            }
            #expect(ContinuousClock.now - started < .seconds(2), "no wait on the writer's lock")
            try run.commit()
            try await client.execute(uri: "/api/lookup?user=u9", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("delivered 1 of 1"), "the commit is visible at once")
            }
        }
        withExtendedLifetime(lock) {}
    }
}

/// The nightly run's connection, handed to the test's request closure (used by one task at a
/// time: the test awaits each request before committing).
final class NightlyWriter: @unchecked Sendable {
    private let store: ReconStore
    init(_ store: ReconStore) { self.store = store }
    func commit() throws { try store.ledgerImport.commitBatch() }
}
