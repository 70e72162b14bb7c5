import AppStoreSimulator
import Foundation
import IAPRecon
import IAPReconTestSupport
import Testing

/// `iap-recon simulator`: a real server process on loopback that answers from its seed file and
/// stops cleanly on SIGTERM.
@Suite struct SimulatorCommandTests {
    let dir = TemporaryDirectory("simulator-command")

    @Test func servesVerifyReceiptFromItsSeedAndStopsOnSigterm() async throws {
        let receipt = Data("a receipt the simulator knows".utf8).base64EncodedString()
        let seed = SimulatorSeed(
            bundleId: "com.example.app",
            transactions: [
                SimulatorTransaction(
                    transactionId: "42", productId: "coins", purchaseDate: 1_795_000_000_000, price: 990,
                    currency: "USD")
            ],
            receipts: [SimulatorReceipt(data: receipt, environment: "Sandbox", transactionIds: ["42"])])
        let seedFile = dir.file("seed.json")
        try JSONEncoder().encode(seed).write(to: URL(fileURLWithPath: seedFile))
        // Reserve a free port, then let the simulator bind it.
        let port = try freePort()
        let process = Process()
        process.executableURL = productsDirectory().appendingPathComponent("iap-recon")
        process.arguments = ["simulator", "--port", String(port), "--seed", seedFile]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let endpoints = AppStoreEndpoints(
            verifyReceiptProduction: try #require(URL(string: "http://127.0.0.1:\(port)/production/verifyReceipt")),
            verifyReceiptSandbox: try #require(URL(string: "http://127.0.0.1:\(port)/sandbox/verifyReceipt")),
            requestTimeout: .seconds(10))
        let outcome = try await AsyncHTTPTransport.withTransport { transport in
            let client = try VerifyReceiptClient(
                endpoints: endpoints, transport: transport,
                retryPolicy: RetryPolicy(
                    maxAttempts: 20, budget: .seconds(20), baseDelay: .milliseconds(100), maxDelay: .milliseconds(500)),
                rateLimiter: .unlimited())
            return await client.verify(receiptData: receipt)
        }
        guard case .answered(let answer) = outcome else {
            Issue.record("expected an answer, got \(outcome)")
            return
        }
        #expect(answer.status == 0)
        #expect(answer.statuses.suffix(2) == [21007, 0])  // production said "sandbox receipt", sandbox said valid
        #expect(answer.allEntries.map(\.transactionID).contains("42"))

        process.terminate()  // SIGTERM
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// A port the kernel considers free right now.
    func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
