import AppStoreSimulator
import Foundation
import Hummingbird
import HummingbirdTesting
import IAPReconTestSupport
import Logging
import ReconDemo
import SupportWeb
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

/// The web view's order-id search asks Apple's Look Up Order ID (here the simulator) exactly
/// as `lookup --order-id` does, and answers with the same bytes.
@Suite struct SupportWebOrderLookupTests {
    let dir = TemporaryDirectory("web-order")
    let logger = Logger.quiet

    @Test func orderIdSearchGoesThroughTheServerAPI() async throws {
        let dataset = try DemoDataset.generate(seed: 7, purchases: 60)
        let (simulator, config) = try await DemoRun.startSimulator(
            for: dataset, databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"), inputDirectory: dir.path
        )
        _ = try await config.dependencies(at: dataset.asOf).importFiles(
            ImportRequest(
                transactions: [try dir.write("t.csv", dataset.transactions)],
                receipts: [try dir.write("r.jsonl", dataset.receipts)],
                products: [try dir.write("p.csv", dataset.products)]))
        _ = try await config.dependencies().verify()
        let undelivered = try #require(dataset.injected.first { $0.0 == .undelivered }?.1)
        let lookup = try config.dependencies(opening: .readOnly)
        let known = try await lookup.lookup(.order("MK" + undelivered, transactionIDs: []), json: true)
        let unknown = try await lookup.lookup(.order("NOPE123", transactionIDs: []), json: true)

        let app = SupportServer.makeApplication(
            settings: SupportServerSettings(recon: try config.validated(), port: 0), logger: logger)
        try await app.test(.router) { client in
            try await client.execute(uri: "/api/lookup?order_id=MK\(undelivered)", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == known.lines.joined(separator: "\n") + "\n")
            }
            try await client.execute(uri: "/lookup?order_id=MK\(undelivered)", method: .get) { response in
                #expect(
                    String(buffer: response.body).contains(
                        "order MK\(undelivered): charged for 1 purchase, delivered 0 of 1; NOT DELIVERED: \(undelivered)"
                    ))
            }
            try await client.execute(uri: "/api/lookup?order_id=NOPE123", method: .get) { response in
                #expect(String(buffer: response.body) == unknown.lines.joined(separator: "\n") + "\n")
                #expect(
                    String(buffer: response.body).contains(
                        "\"answer\" : \"order NOPE123: Apple says this order id is not valid (status 1)\""))
            }
        }
        // Two by the command, three by the web view: each search asks Apple afresh.
        #expect(simulator.requestLog.count(prefix: "/production/inApps/v1/lookup/") == 5)
        await simulator.stop()
    }
}
