import Foundation
import Hummingbird
import HummingbirdTesting
import IAPReconTestSupport
import Logging
import Testing

@testable import IAPRecon
@testable import ReconLookup
@testable import ReconModel
@testable import ReconStorage
@testable import SupportWeb

/// `GET /lookup?app_transaction=A` (CONTRACT §7): every app account, transaction and finding one Apple Account's
/// `appTransactionId` links, as `lookup --app-transaction A` shows them.
@Suite struct SupportAppTransactionTests {
    /// The support desk store, with Apple's evidence stating one `appTransactionId` on u5's and u9's purchases.
    func fixture() async throws -> SupportFixture {
        let fixture = try await SupportFixture("web-app-transaction")
        let store = try ReconStore(path: fixture.config.databasePath)
        for (transaction, user) in [("t5", "u5"), ("t9", "u9")] {
            var entry = EvidenceEntry(
                transactionID: transaction, originalTransactionID: transaction, productID: "premium", quantity: 1,
                purchaseDate: SupportFixture.t0)
            entry.appTransactionID = "704289"
            try store.receipts.recordVerification(
                VerificationRecord(
                    recordIDs: [], receiptID: nil, transactionID: transaction, source: .serverAPI, endpoint: nil,
                    httpStatus: 200, appleStatus: nil, environment: .production, bundleID: "com.example.app",
                    outcome: .valid, detail: "Get Transaction Info for \(user)", attempts: 1, entries: [entry]),
                runID: nil, at: SupportFixture.t0 + 95_000_000, learnedAt: SupportFixture.t0 + 95_000_000)
        }
        return fixture
    }

    func app(_ fixture: SupportFixture) throws -> some ApplicationProtocol {
        SupportServer.makeApplication(
            settings: SupportServerSettings(recon: try fixture.config.validated(), port: 0, token: nil),
            logger: .quiet)
    }

    @Test func theAnswerNamesEveryAppAccountOfTheAppleAccount() async throws {
        let fixture = try await fixture()
        let expected = try await fixture.answerLine(.appTransaction("704289"))
        #expect(expected.hasPrefix("app transaction 704289: charged for 2 purchases"), "\(expected)")
        let json = try await fixture.lookupJSON(.appTransaction("704289"))
        try await app(fixture).test(.router) { client in
            try await client.execute(uri: "/lookup?app_transaction=704289", method: .get) { response in
                #expect(response.status == .ok)
                let body = String(buffer: response.body)
                #expect(body.contains("<p class=\"answer-line\" id=\"answer\">\(expected)</p>"), "\(body)")
                #expect(body.contains("name=\"app_transaction\" value=\"704289\""))
                #expect(body.contains("u5") && body.contains("u9"))
            }
            try await client.execute(uri: "/api/lookup?app_transaction=704289", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == json)
            }
            try await client.execute(uri: "/lookup?app_transaction=704289&user=u5", method: .get) { response in
                #expect(String(buffer: response.body).contains("give exactly one of"))
            }
        }
    }
}
