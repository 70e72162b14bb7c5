import AppStoreSimulator
import Foundation
import IAPRecon
import Testing

@Suite("App Store simulator")
struct SimulatorTests {
    @Test("Binds an ephemeral loopback port and stops cleanly")
    func startStop() async throws {
        let simulator = try await AppStoreSimulator.start(seed: SimFixture.seed())
        #expect(simulator.port > 0)
        #expect(simulator.host == "127.0.0.1")
        #expect(simulator.productionBaseURL.absoluteString == "http://127.0.0.1:\(simulator.port)/production")
        #expect(
            simulator.endpoints().verifyReceiptSandbox.absoluteString
                == "http://127.0.0.1:\(simulator.port)/sandbox/verifyReceipt")
        #expect(simulator.rootCertificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        await simulator.stop()
        await simulator.stop()
    }

    @Test("Stopping releases a request held by a hang fault")
    func stopWithHang() async throws {
        let simulator = try await AppStoreSimulator.start(
            seed: SimFixture.seed(), faults: FaultPlan([.always(.hang)]), maxHang: .seconds(20))
        let transport = AsyncHTTPTransport()
        let request = AppleHTTPRequest(
            method: .post, url: simulator.endpoints().verifyReceiptProduction, body: Data("{}".utf8),
            endpoint: .verifyReceipt, environment: .production)
        let pending = Task { try? await transport.send(request, timeout: .seconds(15)) }
        for _ in 0..<200 where simulator.requestLog.total == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(simulator.requestLog.total == 1)
        let started = ContinuousClock.now
        await simulator.stop()
        #expect(ContinuousClock.now - started < .seconds(5))
        let response = await pending.value
        #expect(response == nil)
        try await transport.shutdown()
    }

    @Test("A seed file round-trips, and accepts ISO 8601 dates and numeric ids")
    func seedFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = SimFixture.seed()
        let file = directory.appendingPathComponent("seed.json")
        try original.jsonData().write(to: file)
        #expect(try SimulatorSeed.load(from: file) == original)

        let handwritten = """
            {"bundleId": "com.example.app", "sharedSecret": "x", "historyPageSize": 5,
             "transactions": [
               {"transactionId": 1000, "productId": "coins", "environment": "Sandbox",
                "purchaseDate": "2026-11-20T05:05:00-08:00", "type": "consumable", "price": 990, "currency": "USD",
                "revocationDate": 1790000000000, "revocationType": "REFUND_FULL"}
             ],
             "receipts": [{"data": "abc", "environment": "Sandbox", "transactionIds": ["1000"]}]}
            """
        let other = directory.appendingPathComponent("hand.json")
        try Data(handwritten.utf8).write(to: other)
        let seed = try SimulatorSeed.load(from: other)
        #expect(seed.transactions.first?.transactionId == "1000")
        #expect(seed.transactions.first?.purchaseDate == 1_795_179_900_000)
        #expect(seed.transactions.first?.appleType == "Consumable")
        #expect(seed.receipts.first?.key == SimulatorReceipt.hash("abc"))
    }

    @Test("Seed problems are reported with the file and the key")
    func seedErrors() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bad.json")
        try Data(#"{"transactions": [], "receipts": []}"#.utf8).write(to: file)
        #expect(throws: SimulatorError.seedFile(path: file.path, reason: "missing key `bundleId`")) {
            _ = try SimulatorSeed.load(from: file)
        }
        var seed = SimFixture.seed()
        seed.receipts.append(SimulatorReceipt(data: "x", transactionIds: ["nope"]))
        await #expect(throws: SimulatorError.invalidSeed("receipt #4 names unknown transaction nope")) {
            _ = try await AppStoreSimulator.start(seed: seed)
        }
    }

    @Test("A seeded probability fault plan repeats exactly")
    func seededFaults() async throws {
        func statuses() async throws -> [Int?] {
            let faults = FaultPlan([
                .random(0.5, seed: 42, at: SimFixture.productionPath, .httpStatus(503, errorCode: nil))
            ])
            return try await withSimulator(faults: faults) { simulator, transport in
                let request = AppleHTTPRequest(
                    method: .post, url: simulator.endpoints().verifyReceiptProduction,
                    body: Data(#"{"receipt-data": "eA=="}"#.utf8), endpoint: .verifyReceipt, environment: .production)
                for _ in 0..<20 { _ = try await transport.send(request, timeout: .seconds(20)) }
                return simulator.requestLog.requests.map(\.status)
            }
        }
        let first = try await statuses()
        let second = try await statuses()
        #expect(first == second)
        #expect(first.contains(503))
        #expect(first.contains(200))
    }

    @Test("Faults can be changed while running, and the log can be reset")
    func changeFaults() async throws {
        try await withSimulator { simulator, transport in
            let request = AppleHTTPRequest(
                method: .post, url: simulator.endpoints().verifyReceiptProduction,
                body: Data(#"{"receipt-data": "eA=="}"#.utf8), endpoint: .verifyReceipt, environment: .production)
            let before = try await transport.send(request, timeout: .seconds(20)).status
            simulator.setFaults(FaultPlan([.first(1, .httpStatus(500, errorCode: nil))]))
            let faulted = try await transport.send(request, timeout: .seconds(20)).status
            let after = try await transport.send(request, timeout: .seconds(20)).status
            let statuses: [Int] = [before, faulted, after]
            #expect(statuses == [200, 500, 200])
            #expect(simulator.requestLog.countsByPath == [SimFixture.productionPath: 3])
            simulator.requestLog.reset()
            #expect(simulator.requestLog.total == 0)
        }
    }

    @Test("Unknown paths and environments are 404")
    func notFound() async throws {
        try await withSimulator { simulator, transport in
            let url = simulator.baseURL.appendingPathComponent("staging/verifyReceipt")
            let request = AppleHTTPRequest(
                method: .post, url: url, body: Data("{}".utf8), endpoint: .verifyReceipt, environment: .production)
            let status = try await transport.send(request, timeout: .seconds(20)).status
            #expect(status == 404)
        }
    }
}
