import AppStoreTestSigning
import Foundation
import IAPRecon
import IAPReconTestSupport
import Testing

/// `iap-recon answer-consumption` and `lookup --app-transaction` through the built binary.
@Suite struct AnswerConsumptionCommandTests {
    let dir = TemporaryDirectory("cli-answer-consumption")
    /// An hour ago: the request is learned now, and its deadline is eleven hours away.
    static let signedDate = Int64(Date().timeIntervalSince1970 * 1000) / 1000 * 1000 - 3_600_000

    /// A store with one consented user's consumption request about transaction 7000 (Apple's app transaction 71134).
    func store() throws -> [String] {
        let authority = try SigningAuthority()
        var transaction = JWSTransactionDecodedPayload(
            transactionId: "7000", originalTransactionId: "7000", bundleId: "com.example.app", productId: "coins",
            purchaseDate: Self.signedDate - 3_600_000, quantity: 1, type: "Consumable",
            inAppOwnershipType: "PURCHASED", signedDate: Self.signedDate, environment: "Production", price: 990,
            currency: "USD")
        transaction.appTransactionId = "71134"
        var payload = NotificationBody.Payload(
            bundleId: "com.example.app", environment: "Production",
            signedTransactionInfo: try JWSSigner.sign(payload: transaction, authority: authority))
        payload.consumptionRequestReason = "UNINTENDED_PURCHASE"
        let body = NotificationBody(
            notificationType: "CONSUMPTION_REQUEST", notificationUUID: "0f4c7d0e-5d7c-4a4e-9c59-8a1f6b2d3e02",
            data: payload, signedDate: Self.signedDate)
        let config = [
            "--trusted-root", try dir.write("root.pem", authority.rootPEM), "--bundle-id", "com.example.app",
        ]
        let imported = try runIAPRecon(
            [
                "import", "--db", dir.file("s.sqlite"),
                "--notifications",
                try dir.write("n.jsonl", "{\"signedPayload\":\"\(try body.signed(by: authority))\"}\n"),
                "--transactions",
                try dir.write(
                    "t.csv",
                    "record_id,user_id,product_id,transaction_id,purchase_date,price,currency,verification_status,"
                        + "delivered_at\nr1,u1,coins,7000,\(Self.signedDate - 3_600_000),0.99,USD,verified,"
                        + "\(Self.signedDate - 3_599_000)\n"),
                "--consents",
                try dir.write("c.jsonl", "{\"user_id\":\"u1\",\"consented_at\":\"2026-01-01T00:00:00Z\"}\n"),
            ] + config)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("consents \(dir.file("c.jsonl")): read 1, accepted 1, rejected 0"))
        return config
    }

    @Test func aDryRunPrintsTheV2BodyAndWithoutCredentialsNothingIsSent() throws {
        let config = try store()
        let dry = try runIAPRecon(
            ["answer-consumption", "--db", dir.file("s.sqlite"), "--dry-run"] + config)
        #expect(dry.exitCode == 0, "\(dry.stderr)")
        #expect(
            dry.stdout.contains(
                "would send PUT /inApps/v2/transactions/consumption/7000 (Production) "
                    + #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#),
            "\(dry.stdout)")
        let late = try runIAPRecon(
            [
                "answer-consumption", "--db", dir.file("s.sqlite"), "--as-of", String(Self.signedDate + 13 * 3_600_000),
                "--dry-run",
            ] + config)
        #expect(late.stdout.contains("consumption requests: 1; would answer 0; past the deadline 1"), "\(late.stdout)")
        let noKey = try runIAPRecon(
            ["answer-consumption", "--db", dir.file("s.sqlite")] + config)
        #expect(noKey.exitCode == 1)
        #expect(noKey.stderr.contains("App Store Server API credentials"), "\(noKey.stderr)")
        let missing = try runIAPRecon(["answer-consumption", "--db", dir.file("none.sqlite")])
        #expect(missing.exitCode == 1)
        #expect(missing.stderr.contains("no store at"), "\(missing.stderr)")
    }

    @Test func lookupByAppTransactionNamesTheAccounts() throws {
        let config = try store()
        let lookup = try runIAPRecon(["lookup", "--db", dir.file("s.sqlite"), "--app-transaction", "71134"] + config)
        #expect(lookup.exitCode == 0, "\(lookup.stderr)")
        #expect(
            lookup.stdout.hasPrefix("app transaction 71134: charged for 1 purchase, delivered 1 of 1"),
            "\(lookup.stdout)")
        let both = try runIAPRecon(
            ["lookup", "--db", dir.file("s.sqlite"), "--app-transaction", "71134", "--user", "u1"] + config)
        #expect(both.exitCode == 64)
    }
}
