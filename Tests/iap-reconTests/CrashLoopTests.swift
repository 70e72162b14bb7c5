import AppStoreSimulator
import Foundation
import IAPRecon
import IAPReconTestSupport
import ReconDemo
import Testing

/// The reliability suite's crash loop (CONTRACT §3: "a killed run loses no completed verification
/// and a rerun does not verify it again"): `run` against the simulator, killed with SIGKILL at
/// random moments, then finished.
///
/// `IAP_RECON_CRASH_KILLS` sets the number of kills (`make reliability`: 50; `make test`: 3). The loop runs with the
/// store in SQLite and in PostgreSQL (CONTRACT §2 `STORE`: "a run killed with SIGKILL leaves nothing half-counted, and
/// the rerun completes").
@Suite(.serialized) struct CrashLoopTests {
    let dir = TemporaryDirectory("crash-loop")

    static var kills: Int { ProcessInfo.processInfo.environment["IAP_RECON_CRASH_KILLS"].flatMap(Int.init) ?? 3 }

    /// Starts `iap-recon` with `arguments` and returns the process without waiting.
    func launch(_ arguments: [String], environment: [String: String]) throws -> Process {
        let process = Process()
        process.executableURL = productsDirectory().appendingPathComponent("iap-recon")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test func killedRunsLoseNothingAskNothingTwiceAndReportTheSame() async throws {
        try await crashLoop(store: dir.file("crash.sqlite")) { store throws in
            let integrity = try store.integrityCheck()
            #expect(integrity == "ok")
        }
    }

    /// The same kills with the store in PostgreSQL: a killed client's transaction is rolled back by the server and its
    /// session's writer lock released with it, so the next run takes the lock and finishes.
    @Test func killedRunsOnPostgreSQLLoseNothingAskNothingTwiceAndReportTheSame() async throws {
        let server = try ThrowawayPostgres()
        defer { server.destroy() }
        try await crashLoop(store: server.url()) { _ throws in
            // No session of a killed run is left holding the writer's lock (key 0x6961707265630002).
            let held = try server.psql(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 1767993458 AND objid = 1700986882"
            )
            #expect(held.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        }
    }

    /// The same kills with the store on a three-node Citus cluster: the coordinator rolls back a killed client's
    /// distributed transaction on every worker, and the rerun ends with the reports of an uninterrupted store.
    @Test func killedRunsOnCitusLoseNothingAskNothingTwiceAndReportTheSame() async throws {
        let cluster = try ThrowawayCitus()
        defer { cluster.destroy() }
        try await crashLoop(store: try cluster.createDatabase("crash")) { _ throws in
            let prepared = try cluster.psql("SELECT count(*) FROM pg_prepared_xacts", database: "crash")
            #expect(prepared.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "no transaction left in doubt")
        }
    }

    /// Kills `run` into `crashStore` at random moments, finishes it, and compares what it reports and asked Apple with
    /// an uninterrupted run into an SQLite store; `check` looks at the finished store.
    func crashLoop(store crashStore: String, check: (ReconStore) throws -> Void) async throws {
        let dataset = try DemoDataset.generate(seed: 5, purchases: 80)
        let (simulator, config) = try await DemoRun.startSimulator(
            for: dataset, databasePath: dir.file("ref.sqlite"), outputDirectory: dir.file("ref"),
            inputDirectory: dir.path)
        defer { Task { await simulator.stop() } }
        let inputs = [
            "--transactions", try dir.write("t.csv", dataset.transactions),
            "--receipts", try dir.write("r.jsonl", dataset.receipts),
            "--products", try dir.write("p.csv", dataset.products),
        ]
        func flags(_ store: String) -> [String] {
            [
                "--db", store, "--bundle-id", dataset.bundleID, "--trusted-root", config.trustedRoots[0],
                "--verify-receipt-url", config.verifyReceiptURL,
                "--sandbox-verify-receipt-url", config.sandboxVerifyReceiptURL,
                "--server-api-url", config.serverAPIURL, "--sandbox-server-api-url", config.sandboxServerAPIURL,
                "--concurrency", "4", "--as-of", Timestamp.iso(dataset.asOf),
            ] + inputs
        }
        let environment = [
            "IAP_RECON_SHARED_SECRET": DemoDataset.sharedSecret, "IAP_RECON_API_KEY_FILE": config.apiKeyFile ?? "",
            "IAP_RECON_API_KEY_ID": config.apiKeyID ?? "", "IAP_RECON_ISSUER_ID": config.issuerID ?? "",
        ]

        // The uninterrupted run: the reports every interrupted one must end with.
        let started = Date()
        let reference = try await runIAPReconOnItsOwnThread(
            ["run"] + flags(dir.file("ref.sqlite")) + ["--out", dir.file("ref")], environment: environment)
        let duration = Date().timeIntervalSince(started)
        #expect([0, 3].contains(reference.exitCode), "\(reference.stderr)")
        let referenceRequests = simulator.requestLog.verifyReceiptRequests.count

        // Killed at random moments of a run's length, seeded so a failure reproduces.
        var random = SplitMix64(seed: 12)
        var killedMidway = 0
        for _ in 0..<Self.kills {
            let process = try launch(
                ["run"] + flags(crashStore) + ["--out", dir.file("crash")], environment: environment)
            // Asleep, not blocking: the in-process simulator answers the run on the threads tasks share.
            try await Task.sleep(nanoseconds: UInt64(random.nextUnit() * duration * 1_000_000_000))
            if process.isRunning { killedMidway += 1 }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let finished = try await runIAPReconOnItsOwnThread(
            ["run"] + flags(crashStore) + ["--out", dir.file("crash")], environment: environment)
        #expect([0, 3].contains(finished.exitCode), "\(finished.stderr)")

        let store = try ReconStore(path: crashStore)
        try check(store)
        // No settled receipt was asked again after the verification that settled it was stored.
        let asked = simulator.requestLog.verifyReceiptRequests.dropFirst(referenceRequests)
        var askedAgain: [String] = []
        for (data, settledAt) in try store.settledReceipts() {
            let hash = SimulatorReceipt.hash(data)
            let settled = Date(timeIntervalSince1970: TimeInterval(settledAt) / 1000)
            if asked.contains(where: { $0.receiptSHA256 == hash && $0.receivedAt > settled.addingTimeInterval(0.5) }) {
                askedAgain.append(String(hash.prefix(12)))
            }
        }
        #expect(askedAgain.isEmpty, "receipts asked again after they were settled: \(askedAgain)")
        for name in ["discrepancies.csv", "revenue_daily.csv", "rejected.csv"] {
            let crashed = try dir.read("crash/" + name).split(separator: "\r\n")
            let uninterrupted = try dir.read("ref/" + name).split(separator: "\r\n")
            let differing = zip(crashed, uninterrupted).first { $0 != $1 }
            #expect(
                crashed == uninterrupted,
                "\(name) differs after \(Self.kills) kills: \(crashed.count) vs \(uninterrupted.count) lines; \(String(describing: differing))"
            )
        }
        print(
            "crash loop: \(Self.kills) kills (\(killedMidway) mid-run), run of \(String(format: "%.2f", duration)) s, "
                + "\(asked.count) verifyReceipt requests across them, store checked, asked again: \(askedAgain.count)")
    }
}
