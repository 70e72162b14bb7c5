import AppStoreSimulator
import Foundation
import IAPReconTestSupport
import Testing

@testable import AppleData
@testable import IAPRecon
@testable import ReconFindings
@testable import ReconImport
@testable import ReconModel
@testable import ReconStorage

/// `answer-consumption` against the simulator (CONTRACT §7): Apple's `CONSUMPTION_REQUEST`s reach the store through
/// Get Notification History, and Send Consumption Information V2 carries the ledger's answer once, only where the user
/// consented, only before the deadline.
@Suite struct ConsumptionAnswerEndToEndTests {
    let dir = TemporaryDirectory("consumption-answer")
    static let hour: Int64 = 3_600_000
    static let t0: Int64 = 1_795_176_000_000  // 2026-11-20T12:00:00Z
    static let asOf = t0 + 2 * hour

    static var seed: SimulatorSeed {
        var seed = SimFixture.seed()
        func coin(_ id: String, at time: Int64, askedAt: Int64) -> SimulatorTransaction {
            var transaction = SimulatorTransaction(
                transactionId: id, productId: "coins.100", environment: "Production", purchaseDate: time,
                type: "Consumable", price: 990, currency: "USD", storefront: "USA")
            transaction.consumptionRequestDate = askedAt
            return transaction
        }
        seed.transactions = [
            // u1 consented, delivered: answered.
            coin("7001", at: t0, askedAt: t0 + hour),
            // u2 never consented: nothing may be sent.
            coin("7002", at: t0, askedAt: t0 + hour),
            // u1 again, asked 14 hours before the as-of: the deadline has passed.
            coin("7003", at: t0 - 20 * hour, askedAt: t0 - 12 * hour),
        ]
        seed.receipts = []
        return seed
    }

    func config(_ simulator: AppStoreSimulator) throws -> ReconConfig {
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        config.asOf = Self.asOf
        config.bundleIDs = [SimFixture.bundleID]
        config.trustedRoots = [try dir.write("root.pem", simulator.rootCertificatePEM)]
        config.verifyReceiptURL = simulator.productionBaseURL.appendingPathComponent("verifyReceipt").absoluteString
        config.sandboxVerifyReceiptURL = simulator.sandboxBaseURL.appendingPathComponent("verifyReceipt").absoluteString
        config.serverAPIURL = simulator.productionBaseURL.absoluteString
        config.sandboxServerAPIURL = simulator.sandboxBaseURL.absoluteString
        config.retryAttempts = 2
        config.retryBaseDelayMillis = 10
        config.historyDays = 2
        config.apiKeyFile = try dir.write("AuthKey.p8", SimFixture.apiKey.privateKeyPEM)
        config.apiKeyID = SimFixture.apiKey.key.keyId
        config.issuerID = SimFixture.apiKey.key.issuerId
        return config
    }

    func inputs() throws -> ImportRequest {
        let t0 = Self.t0
        let ledger =
            "record_id,user_id,product_id,transaction_id,purchase_date,price,currency,verification_status,"
            + "delivered_at\nr1,u1,coins.100,7001,\(t0),0.99,USD,verified,\(t0)\n"
            + "r2,u2,coins.100,7002,\(t0),0.99,USD,verified,\(t0)\n"
            + "r3,u1,coins.100,7003,\(t0 - 20 * Self.hour),0.99,USD,verified,\n"
        return ImportRequest(
            transactions: [try dir.write("t.csv", ledger)],
            products: [
                try dir.write(
                    "p.csv", "product_id,type,price,currency,sample_content\ncoins.100,consumable,0.99,USD,no\n")
            ],
            consents: [try dir.write("c.csv", "user_id,consented_at\nu1,2026-01-01T00:00:00Z\n")])
    }

    @Test func oneAnswerIsSentOnceWithTheV2BodyAndTheReportShowsIt() async throws {
        try await withSimulator(seed: Self.seed) { simulator, transport in
            let deps = try ReconDependencies(config: config(simulator), logger: .quiet, transport: transport)
            _ = try await deps.importFiles(try inputs())
            _ = try await deps.verify()
            let requests = try deps.store.appleWord.notices(asOf: Self.asOf).filter { $0.type == "CONSUMPTION_REQUEST" }
            #expect(requests.map { $0.transactionID ?? "" }.sorted() == ["7001", "7002", "7003"])

            let body = #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#
            let dry = try await deps.answerConsumption(dryRun: true)
            #expect(dry.status == .done)
            #expect(dry.lines.contains("would send PUT /inApps/v2/transactions/consumption/7001 (Production) \(body)"))
            #expect(simulator.requestLog.consumptionBodies.isEmpty)

            let sent = try await deps.answerConsumption(dryRun: false)
            #expect(sent.status == .done, "\(sent.lines)")
            let bodies = simulator.requestLog.consumptionBodies
            #expect(bodies.map(\.transactionID) == ["7001"])
            #expect(bodies.first?.body == body)
            #expect(bodies.first?.status == 202)
            #expect(
                sent.lines.last
                    == "consumption requests: 3; answered 1; past the deadline 1; without the user's consent 1")

            // Never twice.
            let again = try await deps.answerConsumption(dryRun: false)
            #expect(again.status == .done)
            #expect(simulator.requestLog.consumptionBodies.count == 1)

            _ = try await deps.report()
            let csv = try dir.read("out/consumption_requests.csv")
            #expect(
                csv.contains(
                    ",7001,7001,u1,coins.100,UNINTENDED_PURCHASE,2026-11-20T13:00:00Z,2026-11-21T01:00:00Z,yes,DELIVERED,,false,,2026-11-20T14:00:00Z,\r\n"
                ), "\(csv)")
            #expect(
                csv.contains(
                    ",7002,7002,u2,coins.100,UNINTENDED_PURCHASE,2026-11-20T13:00:00Z,2026-11-21T01:00:00Z,no,DELIVERED,,false,,,\r\n"
                ), "\(csv)")
            let discrepancies = try dir.read("out/discrepancies.csv")
            let unanswered = discrepancies.split(separator: "\r\n").filter { $0.hasPrefix("CONSUMPTION_UNANSWERED,") }
            #expect(unanswered.count == 1, "\(discrepancies)")
            #expect(unanswered.first?.contains(",7003,") == true)
            #expect(unanswered.first?.contains("has passed") == true)
        }
    }

    @Test func anAnswerAppleDoesNotTakeExitsThreeAndIsSentAgainByTheNextRun() async throws {
        try await withSimulator(seed: Self.seed) { simulator, transport in
            let deps = try ReconDependencies(config: config(simulator), logger: .quiet, transport: transport)
            _ = try await deps.importFiles(try inputs())
            _ = try await deps.verify()
            let path = "/production/inApps/v2/transactions/consumption/7001"
            simulator.setFaults(FaultPlan([.always(at: path, .httpStatus(503, errorCode: nil))]))
            let failed = try await deps.answerConsumption(dryRun: false)
            #expect(failed.status == .findingsAtOrAboveFailOn)
            #expect(failed.exitCode == 3)
            #expect(
                failed.lines.contains { $0.hasPrefix("failed 7001 (request ") && $0.contains("could not be reached") },
                "\(failed.lines)")
            #expect(simulator.requestLog.count(path: path) == 2)  // the retry budget: two attempts
            simulator.setFaults(.none)
            let sent = try await deps.answerConsumption(dryRun: false)
            #expect(sent.status == .done)
            #expect(simulator.requestLog.consumptionBodies.filter { $0.status == 202 }.map(\.transactionID) == ["7001"])
        }
    }
}
