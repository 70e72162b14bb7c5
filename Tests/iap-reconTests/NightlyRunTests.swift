import AppStoreSimulator
import Foundation
import IAPRecon
import IAPReconTestSupport
import ReconDemo
import Testing

/// The built binary running the nightly job against the simulator on loopback.
@Suite(.serialized) struct NightlyRunTests {
    let dir = TemporaryDirectory("nightly")

    /// A generated dataset, its input files, and a running simulator with the flags, config file
    /// and environment that point `iap-recon` at it.
    struct Setup {
        var dataset: DemoDataset
        var simulator: AppStoreSimulator
        var flags: [String]
        var environment: [String: String]
        var inputs: [String]
    }

    func setup(purchases: Int = 60, faults: [FaultRule] = []) async throws -> Setup {
        let dataset = try DemoDataset.generate(seed: 3, purchases: purchases)
        let (simulator, config) = try await DemoRun.startSimulator(
            for: dataset, databasePath: dir.file("s.sqlite"), outputDirectory: dir.file("out"),
            inputDirectory: dir.path,
            extraFaults: faults)
        let configFile = try dir.write(
            "config.json", #"{"version": 1, "retry-attempts": 3, "retry-budget": "30s", "retry-base-delay": "50ms"}"#)
        let flags = [
            "--db", dir.file("s.sqlite"), "--bundle-id", dataset.bundleID, "--trusted-root", config.trustedRoots[0],
            "--verify-receipt-url", config.verifyReceiptURL, "--sandbox-verify-receipt-url",
            config.sandboxVerifyReceiptURL,
            "--server-api-url", config.serverAPIURL, "--sandbox-server-api-url", config.sandboxServerAPIURL,
            "--concurrency", "8", "--request-timeout", "20s", "--config", configFile,
        ]
        let environment = [
            "IAP_RECON_SHARED_SECRET": DemoDataset.sharedSecret, "IAP_RECON_API_KEY_FILE": config.apiKeyFile ?? "",
            "IAP_RECON_API_KEY_ID": config.apiKeyID ?? "", "IAP_RECON_ISSUER_ID": config.issuerID ?? "",
        ]
        let inputs = [
            "--transactions", try dir.write("t.csv", dataset.transactions), "--receipts",
            try dir.write("r.jsonl", dataset.receipts),
            "--products", try dir.write("p.csv", dataset.products),
        ]
        return Setup(dataset: dataset, simulator: simulator, flags: flags, environment: environment, inputs: inputs)
    }

    @Test func failOnDecidesExitCodeThreeAndSecretsNeverAppear() async throws {
        let s = try await setup()
        let asOf = ["--as-of", Timestamp.iso(s.dataset.asOf)]
        let run = try await runIAPReconOnItsOwnThread(
            ["run"] + s.flags + s.inputs + asOf + [
                "--out", dir.file("out"), "--fail-on", "critical", "--log-level", "trace",
            ],
            environment: s.environment)
        #expect(run.exitCode == 3, "\(run.stderr)")
        #expect(run.stdout.contains("findings:"))
        // Below info, each phase of detection and of the report says how long it took.
        for phase in [
            "transactions", "original transactions", "findings history", "reconciliation.xlsx and discrepancies.csv",
        ] {
            #expect(run.stderr.contains("phase=\(phase) "), "\(phase)")
        }
        // Same store, same --as-of, a second run without --fail-on: 0, and byte-identical CSV.
        let again = try await runIAPReconOnItsOwnThread(
            ["run"] + s.flags + asOf + ["--out", dir.file("again"), "--log-format", "json"], environment: s.environment)
        #expect(again.exitCode == 0, "\(again.stderr)")
        for name in ["discrepancies.csv", "revenue_daily.csv", "rejected.csv"] {
            #expect(try dir.read("out/" + name) == dir.read("again/" + name), "\(name)")
        }
        // JSON logs: one object per line.
        for line in again.stderr.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)")
        }
        // The shared secret and the private key appear nowhere: not in output, logs, reports,
        // run.json or the store.
        let keyBody = try String(contentsOfFile: s.environment["IAP_RECON_API_KEY_FILE"] ?? "", encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        var haystacks = [run.stdout, run.stderr, again.stdout, again.stderr]
        for folder in ["out", "again"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.file(folder)) {
                haystacks.append(
                    String(
                        decoding: try Data(contentsOf: URL(fileURLWithPath: dir.file(folder + "/" + name))),
                        as: UTF8.self))
            }
        }
        haystacks.append(
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir.file("s.sqlite"))), as: UTF8.self))
        for text in haystacks {
            #expect(!text.contains(DemoDataset.sharedSecret))
            #expect(!text.contains(keyBody.prefix(40)))
        }
        let runJSON = try JSONSerialization.jsonObject(with: Data(dir.read("out/run.json").utf8)) as? [String: Any]
        #expect(runJSON?["exit_code"] as? Int == 3)
        #expect(
            (runJSON?["stages"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == [
                "import", "verify", "detect", "report",
            ])
        await s.simulator.stop()
    }

    @Test func aSecondRunAtTheSameTimeExitsOneNamingTheHolder() async throws {
        let s = try await setup()
        let lock = try RunLock(
            storePath: dir.file("s.sqlite"), holder: "iap-recon run (pid 4242) since 2026-11-20T02:00:00Z")
        let blocked = try await runIAPReconOnItsOwnThread(
            ["run"] + s.flags + ["--out", dir.file("out")], environment: s.environment)
        #expect(blocked.exitCode == 1)
        #expect(blocked.stderr.contains("store is locked by iap-recon run (pid 4242) since 2026-11-20T02:00:00Z"))
        withExtendedLifetime(lock) {}
        await s.simulator.stop()
    }

    @Test func aLockLeftByAKilledRunDoesNotBlock() async throws {
        let s = try await setup()
        // A killed run leaves its lock file behind, but no process holds the lock.
        try dir.write("s.sqlite.lock", "iap-recon run (pid 999999) since 2026-11-19T02:00:00Z\n")
        let run = try await runIAPReconOnItsOwnThread(
            ["run"] + s.flags + s.inputs + ["--out", dir.file("out")], environment: s.environment)
        #expect(run.exitCode == 0, "\(run.stderr)")
        await s.simulator.stop()
    }

    @Test func aMissingInputFileExitsOne() async throws {
        let s = try await setup()
        let run = try await runIAPReconOnItsOwnThread(
            ["run"] + s.flags + ["--transactions", dir.file("missing.csv"), "--out", dir.file("out")],
            environment: s.environment)
        #expect(run.exitCode == 1)
        #expect(run.stderr.contains("cannot open '\(dir.file("missing.csv"))'"))
        await s.simulator.stop()
    }

    @Test func aKilledVerifyLosesNothingAndARerunDoesNotVerifyAgain() async throws {
        let s = try await setup(
            purchases: 600, faults: [.always(at: "/production/verifyReceipt", .latency(milliseconds: 250))])
        _ = try await runIAPReconOnItsOwnThread(["import", "--db", dir.file("s.sqlite")] + s.inputs)
        var config = s.flags
        if let index = config.firstIndex(of: "--concurrency") { config[index + 1] = "1" }
        let process = Process()
        process.executableURL = productsDirectory().appendingPathComponent("iap-recon")
        process.arguments = ["verify"] + config
        var env = ProcessInfo.processInfo.environment
        for (key, value) in s.environment { env[key] = value }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until a few verifications are stored, then kill -9 mid-run.
        var waited = 0
        while waited < 200 {
            let done = s.simulator.requestLog.count(path: "/production/verifyReceipt")
            if done >= 4 { break }
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let askedBeforeKill = s.simulator.requestLog.count(path: "/production/verifyReceipt")
        let settledBeforeKill = try verifyReceiptVerifications(dir.file("s.sqlite"))
        #expect(settledBeforeKill >= 3, "killed too early")

        let rerun = try await runIAPReconOnItsOwnThread(["verify"] + config, environment: s.environment)
        #expect(rerun.exitCode == 0, "\(rerun.stderr)")
        let settledAfter = try verifyReceiptVerifications(dir.file("s.sqlite"))
        let askedAfter = s.simulator.requestLog.count(path: "/production/verifyReceipt")
        // Every receipt Apple answered before the kill was kept; the rerun asked only for the
        // rest (plus at most the one request in flight when the process died).
        #expect(askedAfter - askedBeforeKill <= settledAfter - settledBeforeKill + 1)
        #expect(settledAfter > settledBeforeKill)
        #expect(try ReconStore(path: dir.file("s.sqlite")).ledger.counts().pending == 1)  // only the unreachable one
        await s.simulator.stop()
    }

    /// verifyReceipt verifications stored (one per receipt asked about).
    func verifyReceiptVerifications(_ path: String) throws -> Int {
        let store = try ReconStore(path: path)
        return try store.receipts.verificationCount(source: .verifyReceipt)
    }
}
