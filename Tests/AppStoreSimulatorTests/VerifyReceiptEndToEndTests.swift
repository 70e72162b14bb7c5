import AppStoreSimulator
import Foundation
import IAPRecon
import Testing

@Suite("verifyReceipt against the simulator")
struct VerifyReceiptEndToEndTests {
    func client(
        _ simulator: AppStoreSimulator, _ transport: AsyncHTTPTransport, secret: String? = nil,
        timeout: Duration = .seconds(20), policy: RetryPolicy = SimFixture.fastPolicy()
    ) throws -> VerifyReceiptClient {
        try VerifyReceiptClient(
            endpoints: simulator.endpoints(requestTimeout: timeout), sharedSecret: secret.map(SharedSecret.init),
            transport: transport, retryPolicy: policy, rateLimiter: .unlimited())
    }

    @Test("Status 0 at production on the first attempt, with every entry")
    func valid() async throws {
        try await withSimulator { simulator, transport in
            let outcome = try await client(simulator, transport).verify(receiptData: SimFixture.productionReceipt)
            let answer = try #require(outcome.answer)
            #expect(answer.verdict == .valid)
            #expect(answer.status == 0)
            #expect(answer.answeredBy == .production)
            #expect(answer.environment == .production)
            #expect(answer.bundleID == SimFixture.bundleID)
            #expect(answer.receiptType == "Production")
            #expect(answer.inApp.map(\.transactionID) == ["1000", "3000"])
            #expect(answer.inApp.first?.quantity == 2)
            #expect(answer.inApp.first?.purchaseDate == 1_700_000_000_000)
            // The subscription family, newest first, with the refund on 3002.
            #expect(answer.latestReceiptInfo.map(\.transactionID) == ["3004", "3003", "3002", "3001", "3000"])
            let refunded = try #require(answer.latestReceiptInfo.first { $0.transactionID == "3002" })
            #expect(refunded.cancellationDate != nil)
            #expect(refunded.cancellationReason == "1")
            #expect(refunded.originalTransactionID == "3000")
            #expect(refunded.webOrderLineItemID == "9002")
            #expect(answer.statuses == [0])
            #expect(answer.attempts == 1)
            #expect(simulator.requestLog.count(path: SimFixture.productionPath) == 1)
            #expect(simulator.requestLog.count(path: SimFixture.sandboxPath) == 0)
        }
    }

    @Test("exclude-old-transactions keeps only the latest renewal")
    func excludeOld() async throws {
        try await withSimulator { simulator, transport in
            let outcome = try await client(simulator, transport)
                .verify(receiptData: SimFixture.productionReceipt, excludeOldTransactions: true)
            #expect(outcome.answer?.latestReceiptInfo.map(\.transactionID) == ["3004"])
        }
    }

    @Test("A receipt known by its SHA-256 only")
    func hashedReceipt() async throws {
        try await withSimulator { simulator, transport in
            let outcome = try await client(simulator, transport).verify(receiptData: SimFixture.hashedReceipt)
            #expect(outcome.answer?.inApp.map(\.transactionID) == ["1000"])
        }
    }

    @Test("21007 at production → sandbox answers")
    func sandboxReceipt() async throws {
        try await withSimulator { simulator, transport in
            let answer = try #require(
                try await client(simulator, transport).verify(receiptData: SimFixture.sandboxReceipt).answer)
            #expect(answer.verdict == .valid)
            #expect(answer.answeredBy == .sandbox)
            #expect(answer.environment == .sandbox)
            #expect(answer.receiptType == "ProductionSandbox")
            #expect(answer.statuses == [21_007, 0])
            #expect(answer.attempts == 2)
            #expect(simulator.requestLog.count(path: SimFixture.productionPath) == 1)
            #expect(simulator.requestLog.count(path: SimFixture.sandboxPath) == 1)
        }
    }

    @Test("21008 at sandbox → production answers")
    func productionReceiptAtSandbox() async throws {
        try await withSimulator { simulator, transport in
            let answer = try #require(
                try await client(simulator, transport)
                    .verify(receiptData: SimFixture.productionReceipt, startAt: .sandbox).answer)
            #expect(answer.answeredBy == .production)
            #expect(answer.statuses == [21_008, 0])
            #expect(simulator.requestLog.requests.map(\.path) == [SimFixture.sandboxPath, SimFixture.productionPath])
        }
    }

    @Test("21002 for undecodable data: invalid, one attempt")
    func malformedReceipt() async throws {
        try await withSimulator { simulator, transport in
            let answer = try #require(
                try await client(simulator, transport).verify(receiptData: "bm90IGEgcmVjZWlwdA==").answer)
            #expect(answer.status == 21_002)
            #expect(answer.verdict == .invalid)
            #expect(simulator.requestLog.total == 1)
        }
    }

    @Test("21003 for an iOS 6 receipt of an unknown transaction: invalid, one attempt")
    func unknownLegacyTransaction() async throws {
        try await withSimulator { simulator, transport in
            let receipt = SimFixture.iOS6Receipt(transactionID: "77777777")
            let answer = try #require(try await client(simulator, transport).verify(receiptData: receipt).answer)
            #expect(answer.status == 21_003)
            #expect(answer.verdict == .invalid)
            #expect(simulator.requestLog.total == 1)
        }
    }

    @Test("21010 (account gone): invalid, one attempt")
    func accountGone() async throws {
        let faults = FaultPlan([.always(at: SimFixture.productionPath, .verifyReceiptStatus(21_010, isRetryable: nil))])
        try await withSimulator(faults: faults) { simulator, transport in
            let answer = try #require(
                try await client(simulator, transport).verify(receiptData: SimFixture.productionReceipt).answer)
            #expect(answer.status == 21_010)
            #expect(answer.verdict == .invalid)
            #expect(simulator.requestLog.total == 1)
        }
    }

    @Test("Apple's iOS 6 legacyTransaction fixture answers from seed transaction 33993399")
    func legacyReceipt() async throws {
        try await withSimulator { simulator, transport in
            let answer = try #require(
                try await client(simulator, transport).verify(receiptData: SimFixture.legacyReceipt).answer)
            #expect(answer.verdict == .valid)
            #expect(answer.bundleID == SimFixture.bundleID)
            #expect(answer.inApp.map(\.transactionID) == ["33993399"])
            #expect(answer.inApp.first?.productID == "legacy.gems")
            #expect(answer.inApp.first?.quantity == 3)
        }
    }

    @Test("A sandbox iOS 6 receipt is redirected like an app receipt")
    func legacySandbox() async throws {
        try await withSimulator { simulator, transport in
            let receipt = SimFixture.iOS6Receipt(transactionID: "2000")
            let answer = try #require(try await client(simulator, transport).verify(receiptData: receipt).answer)
            #expect(answer.statuses == [21_007, 0])
            #expect(answer.inApp.map(\.transactionID) == ["2000"])
        }
    }

    @Test("21004 when the shared secret does not match: a configuration problem")
    func wrongSecret() async throws {
        try await withSimulator(seed: SimFixture.seed(sharedSecret: "right-secret")) { simulator, transport in
            let wrong = try #require(
                try await client(simulator, transport, secret: "wrong-secret").verify(
                    receiptData: SimFixture.productionReceipt
                ).answer)
            #expect(wrong.status == 21_004)
            #expect(wrong.verdict == .configurationProblem)
            let right = try #require(
                try await client(simulator, transport, secret: "right-secret").verify(
                    receiptData: SimFixture.productionReceipt
                ).answer)
            #expect(right.verdict == .valid)
            #expect(simulator.requestLog.total == 2)
        }
    }

    @Test("21005 twice, then valid: three attempts")
    func serverUnavailable() async throws {
        let faults = FaultPlan([
            .first(2, at: SimFixture.productionPath, .verifyReceiptStatus(21_005, isRetryable: nil))
        ])
        try await withSimulator(faults: faults) { simulator, transport in
            let answer = try #require(
                try await client(simulator, transport).verify(receiptData: SimFixture.productionReceipt).answer)
            #expect(answer.verdict == .valid)
            #expect(answer.statuses == [21_005, 21_005, 0])
            #expect(answer.attempts == 3)
            #expect(simulator.requestLog.count(path: SimFixture.productionPath) == 3)
        }
    }

    @Test("21100–21199 with is-retryable are retried", arguments: [21_100, 21_150, 21_199])
    func internalDataAccess(status: Int) async throws {
        let faults = FaultPlan([
            .first(1, at: SimFixture.productionPath, .verifyReceiptStatus(status, isRetryable: true))
        ])
        try await withSimulator(faults: faults) { simulator, transport in
            let answer = try #require(
                try await client(simulator, transport).verify(receiptData: SimFixture.productionReceipt).answer)
            #expect(answer.verdict == .valid)
            #expect(answer.statuses == [status, 0])
            #expect(simulator.requestLog.count(path: SimFixture.productionPath) == 2)
        }
    }

    @Test("HTTP 500/503 are retried", arguments: [500, 503])
    func serverErrors(status: Int) async throws {
        let faults = FaultPlan([.first(2, at: SimFixture.productionPath, .httpStatus(status, errorCode: nil))])
        try await withSimulator(faults: faults) { simulator, transport in
            let outcome = try await client(simulator, transport).verify(receiptData: SimFixture.productionReceipt)
            #expect(outcome.answer?.verdict == .valid)
            #expect(outcome.attempts == 3)
            #expect(simulator.requestLog.requests.map(\.status) == [status, status, 200])
        }
    }

    @Test("429 with Retry-After as UNIX ms: the client really waits that long")
    func rateLimitedRealWait() async throws {
        let faults = FaultPlan([
            .first(
                1, at: SimFixture.productionPath,
                .tooManyRequests(retryAfter: .unixMilliseconds(delayMilliseconds: 300)))
        ])
        try await withSimulator(faults: faults) { simulator, transport in
            let started = ContinuousClock.now
            let outcome = try await client(simulator, transport).verify(receiptData: SimFixture.productionReceipt)
            let elapsed = ContinuousClock.now - started
            #expect(outcome.answer?.verdict == .valid)
            #expect(outcome.attempts == 2)
            #expect(elapsed >= .milliseconds(290))
            let arrivals = simulator.requestLog.requests.map(\.receivedAt)
            #expect(arrivals.count == 2)
            if arrivals.count == 2 {
                #expect(arrivals[1].timeIntervalSince(arrivals[0]) >= 0.29)
            }
        }
    }

    @Test(
        "429 with Retry-After in seconds or as an HTTP-date: the injected clock records the wait",
        arguments: [
            RetryAfterHint.seconds(2), .httpDate(delaySeconds: 3),
        ])
    func rateLimitedRecordedWait(hint: RetryAfterHint) async throws {
        let faults = FaultPlan([.first(1, at: SimFixture.productionPath, .tooManyRequests(retryAfter: hint))])
        try await withSimulator(faults: faults) { simulator, transport in
            let clock = RecordingClock()
            let outcome = try await client(simulator, transport, policy: SimFixture.fastPolicy(clock: clock))
                .verify(receiptData: SimFixture.productionReceipt)
            #expect(outcome.answer?.verdict == .valid)
            #expect(simulator.requestLog.count(path: SimFixture.productionPath) == 2)
            let waited = try #require(clock.sleeps.first)
            // An HTTP-date has one-second resolution, and a loaded machine may take a moment to
            // read the answer: the wait is what is left of the requested time, never nothing.
            #expect(waited >= .milliseconds(900))
            #expect(waited <= .seconds(3))
        }
    }

    @Test("Malformed JSON on 200 is transient")
    func malformedJSON() async throws {
        let faults = FaultPlan([.first(1, at: SimFixture.productionPath, .malformedJSON)])
        try await withSimulator(faults: faults) { simulator, transport in
            let outcome = try await client(simulator, transport).verify(receiptData: SimFixture.productionReceipt)
            #expect(outcome.answer?.verdict == .valid)
            #expect(outcome.attempts == 2)
            #expect(simulator.requestLog.count(path: SimFixture.productionPath) == 2)
        }
    }

    @Test("A connection reset is retried")
    func connectionReset() async throws {
        let faults = FaultPlan([.first(1, at: SimFixture.productionPath, .connectionReset)])
        try await withSimulator(faults: faults) { simulator, transport in
            let outcome = try await client(simulator, transport).verify(receiptData: SimFixture.productionReceipt)
            #expect(outcome.answer?.verdict == .valid)
            #expect(outcome.attempts == 2)
            #expect(simulator.requestLog.count(path: SimFixture.productionPath) == 2)
        }
    }

    @Test("A hang times out each attempt and stays unreachable after the budget, never invalid")
    func hangStaysUnreachable() async throws {
        let faults = FaultPlan([.always(at: SimFixture.productionPath, .hang)])
        try await withSimulator(faults: faults) { simulator, transport in
            let started = ContinuousClock.now
            let outcome = try await client(
                simulator, transport, timeout: .milliseconds(200), policy: SimFixture.fastPolicy(maxAttempts: 3)
            ).verify(receiptData: SimFixture.productionReceipt)
            let elapsed = ContinuousClock.now - started
            guard case .unreachable(let reason, let statuses, let attempts) = outcome else {
                Issue.record("expected unreachable, got \(outcome)")
                return
            }
            #expect(attempts == 3)
            #expect(statuses.isEmpty)
            #expect(reason.contains("timed out"))
            #expect(elapsed >= .milliseconds(600))
            #expect(simulator.requestLog.count(path: SimFixture.productionPath) == 3)
        }
    }

    @Test("Apple down for the whole budget (503 always) stays unreachable")
    func alwaysDown() async throws {
        let faults = FaultPlan([.always(.httpStatus(503, errorCode: nil))])
        try await withSimulator(faults: faults) { simulator, transport in
            let outcome = try await client(simulator, transport, policy: SimFixture.fastPolicy(maxAttempts: 3))
                .verify(receiptData: SimFixture.productionReceipt)
            guard case .unreachable(_, _, let attempts) = outcome else {
                Issue.record("expected unreachable, got \(outcome)")
                return
            }
            #expect(attempts == 3)
            #expect(simulator.requestLog.total == 3)
        }
    }

    @Test("Connection refused (nothing listening) stays unreachable")
    func connectionRefused() async throws {
        // A port bound but never listening refuses connections, and stays ours for the whole
        // test (a stopped simulator's port could be taken by another test's simulator).
        let reserved = try ReservedPort()
        defer { reserved.close() }
        let base = try #require(URL(string: "http://127.0.0.1:\(reserved.port)"))
        let endpoints = AppStoreEndpoints(
            verifyReceiptProduction: base.appendingPathComponent("production/verifyReceipt"),
            verifyReceiptSandbox: base.appendingPathComponent("sandbox/verifyReceipt"),
            serverAPIProduction: base.appendingPathComponent("production"),
            serverAPISandbox: base.appendingPathComponent("sandbox"),
            requestTimeout: .milliseconds(500))
        try await AsyncHTTPTransport.withTransport { transport in
            let client = try VerifyReceiptClient(
                endpoints: endpoints, transport: transport, retryPolicy: SimFixture.fastPolicy(maxAttempts: 2),
                rateLimiter: .unlimited())
            let outcome = await client.verify(receiptData: SimFixture.productionReceipt)
            guard case .unreachable(let reason, _, let attempts) = outcome else {
                Issue.record("expected unreachable, got \(outcome)")
                return
            }
            #expect(attempts == 2)
            #expect(reason.contains("refused") || reason.contains("connection"))
        }
    }

    @Test("A body that is not JSON is answered 21000")
    func notJSON() async throws {
        try await withSimulator { simulator, transport in
            let request = AppleHTTPRequest(
                method: .post, url: simulator.endpoints().verifyReceiptProduction, body: Data("receipt=1".utf8),
                endpoint: .verifyReceipt, environment: .production)
            let response = try await transport.send(request, timeout: .seconds(20))
            #expect(response.status == 200)
            let json = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect((json["status"] as? Int) == 21_000)
        }
    }

    @Test("Many verifications run concurrently through one transport")
    func concurrent() async throws {
        let faults = FaultPlan([.always(.latency(milliseconds: 20))])
        try await withSimulator(faults: faults) { simulator, transport in
            let client = try client(simulator, transport)
            let receipts = Array(repeating: SimFixture.productionReceipt, count: 40)
            // Eight workers share the 40 receipts.
            let valid = await withTaskGroup(of: Int.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        var count = 0
                        for index in stride(from: worker, to: receipts.count, by: 8) {
                            let outcome = await client.verify(receiptData: receipts[index])
                            if outcome.answer?.verdict == .valid { count += 1 }
                        }
                        return count
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(valid == receipts.count)
            #expect(simulator.requestLog.count(path: SimFixture.productionPath) == 40)
        }
    }
}

/// A TCP port on 127.0.0.1 that is bound but not listening: connecting to it is refused.
struct ReservedPort {
    let fd: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw POSIXError(.EINVAL) }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Foundation.close(fd) }
}
