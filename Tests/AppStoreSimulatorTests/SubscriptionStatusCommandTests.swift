import AppStoreSimulator
import Foundation
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

/// `verify` and `run` sweep subscription statuses only with App Store Server API credentials, and say what the sweep
/// did in their summary lines and in `run.json`.
@Suite struct SubscriptionStatusCommandTests {
    let dir = TemporaryDirectory("status-command")
    let fixture = SubscriptionStatusFixture()

    /// A configuration pointing every endpoint at `simulator`, trusting its root, with credentials when asked.
    func config(_ simulator: AppStoreSimulator, credentials: Bool) throws -> ReconConfig {
        var config = ReconConfig.forTesting(databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"))
        config.asOf = fixture.now
        config.bundleIDs = [SimFixture.bundleID]
        config.trustedRoots = [try dir.write("root.pem", simulator.rootCertificatePEM)]
        config.verifyReceiptURL = simulator.productionBaseURL.appendingPathComponent("verifyReceipt").absoluteString
        config.sandboxVerifyReceiptURL = simulator.sandboxBaseURL.appendingPathComponent("verifyReceipt").absoluteString
        config.serverAPIURL = simulator.productionBaseURL.absoluteString
        config.sandboxServerAPIURL = simulator.sandboxBaseURL.absoluteString
        config.retryAttempts = 2
        config.retryBaseDelayMillis = 10
        config.historyDays = 1
        if credentials {
            config.apiKeyFile = try dir.write("AuthKey.p8", SimFixture.apiKey.privateKeyPEM)
            config.apiKeyID = SimFixture.apiKey.key.keyId
            config.issuerID = SimFixture.apiKey.key.issuerId
        }
        return config
    }

    func statusRequests(_ simulator: AppStoreSimulator) -> Int {
        simulator.requestLog.requests.filter { $0.path.contains("/inApps/v1/subscriptions/") }.count
    }

    @Test func withoutCredentialsNothingIsAskedAndTheStoredEvidenceDecides() async throws {
        try await withSimulator(seed: fixture.seed) { simulator, transport in
            let deps = try ReconDependencies(
                config: config(simulator, credentials: false), logger: .quiet, transport: transport)
            _ = try await deps.importFiles(
                ImportRequest(entitlements: [try dir.write("entitlements.csv", fixture.entitlementsCSV)]))
            let output = try await deps.verify()
            #expect(output.status == .done)
            #expect(!output.lines.contains { $0.hasPrefix("subscription statuses:") })
            #expect(statusRequests(simulator) == 0)
            #expect(try deps.store.entitlements.subscriptionStatuses(learnedBy: fixture.now).isEmpty)
        }
    }

    @Test func theNightlyRunCountsTheSweepInItsLinesAndRunJSON() async throws {
        try await withSimulator(seed: fixture.seed) { simulator, transport in
            let deps = try ReconDependencies(
                config: config(simulator, credentials: true), logger: .quiet, transport: transport)
            let entitlements = try dir.write("entitlements.csv", fixture.entitlementsCSV)
            let output = try await deps.nightly(ImportRequest(entitlements: [entitlements]))
            #expect(
                output.lines.contains(
                    "subscription statuses: 8 asked, 7 recorded, 1 unknown to Apple, 0 unreachable, 0 rejected"))
            #expect(statusRequests(simulator) == 10)  // each of 8 in production; 5600 and 999999 in sandbox too
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(dir.read("out/run.json").utf8)) as? [String: Any])
            let stages = try #require(json["stages"] as? [[String: Any]])
            let verify = try #require(stages.first { $0["name"] as? String == "verify" })
            let counts = try #require(verify["counts"] as? [String: Int])
            #expect(counts["subscription_statuses"] == 7)
            #expect(counts["subscription_statuses_asked"] == 8)
            #expect(counts["subscription_statuses_not_found"] == 1)
            #expect(counts["subscription_statuses_unreachable"] == 0)
            #expect(counts["subscription_statuses_rejected"] == 0)
            // Apple answered in this run: the subscription report says so.
            let csv = try dir.read("out/subscriptions.csv")
            #expect(csv.contains(",subscription-status,"))
        }
    }
}
