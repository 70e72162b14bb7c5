import Foundation
import IAPReconTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `iap-recon serve` as a process against the demo store (CONTRACT §6): pages over real HTTP, the
/// JSON of `lookup`, the token, graceful SIGTERM, and the page in a real browser.
@Suite(.serialized) struct ServeCommandTests {
    static let paidNothing = "user-paid-nothing-1"

    @Test func servesTheDemoStoreAndStopsOnSigterm() async throws {
        let demo = try DemoStore.shared.get()
        let server = try ServeProcess(["--db", demo.database, "--port", "0"])
        defer { server.stop() }
        #expect(server.url.hasPrefix("http://127.0.0.1:"))

        let (page, status) = try await get(server.url + "lookup?user=" + Self.paidNothing)
        #expect(status == 200)
        let answer = try demo.answerLine(Self.paidNothing)
        #expect(answer.hasPrefix("user \(Self.paidNothing): charged for 1 purchase, delivered 0 of 1; NOT DELIVERED:"))
        #expect(page.contains("<p class=\"answer-line\" id=\"answer\">\(answer)</p>"))
        #expect(page.contains("MISSING_RECORD"))

        let (api, _) = try await get(server.url + "api/lookup?user=" + Self.paidNothing)
        let cli = try runIAPRecon(["lookup", "--db", demo.database, "--user", Self.paidNothing, "--format", "json"])
        #expect(cli.exitCode == 0)
        #expect(api == cli.stdout)

        #expect(server.terminate() == 0, "SIGTERM stops it gracefully")
    }

    @Test func withATokenEveryRequestNeedsItAndTheLogNeverShowsIt() async throws {
        let demo = try DemoStore.shared.get()
        let token = "e2e-token-0123456789abcdef"
        let server = try ServeProcess(
            ["--db", demo.database, "--port", "0"], environment: ["IAP_RECON_SERVE_TOKEN": token])
        defer { server.stop() }
        let (login, denied) = try await get(server.url + "lookup?user=" + Self.paidNothing)
        #expect(denied == 401)
        #expect(login.contains("action=\"/login\""))
        let (_, allowed) = try await get(server.url + "lookup?user=" + Self.paidNothing, bearer: token)
        #expect(allowed == 200)
        #expect(server.terminate() == 0)
        #expect(server.stderr.contains("path=/lookup"))
        #expect(!server.stderr.contains(token))
        #expect(!server.stdout.contains(token))
    }

    @Test func refusesAnotherAddressWithoutAToken() throws {
        let demo = try DemoStore.shared.get()
        let result = try runIAPRecon(["serve", "--db", demo.database, "--host", "0.0.0.0", "--port", "0"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("refusing to serve on 0.0.0.0 without IAP_RECON_SERVE_TOKEN"))
    }

    @Test(arguments: [["serve"], ["lookup", "--user", "u1"]])
    func noStoreIsNamedAndNotCreated(command: [String]) throws {
        let dir = TemporaryDirectory("serve-missing")
        let path = dir.file("none.sqlite")
        let result = try runIAPRecon(
            [command[0], "--db", path] + command.dropFirst() + (command[0] == "serve" ? ["--port", "0"] : []))
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("no store at \(path)"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// Headless Chromium loads the "paid nothing" page: the rendered DOM carries the answer
    /// line, and the screenshot is kept for a person to look at.
    @Test(.enabled(if: Browser.chromium != nil, "Chromium is not installed (make test installs Debian's chromium)"))
    func aBrowserShowsThePaidNothingAnswer() throws {
        let chromium = try #require(Browser.chromium)
        let demo = try DemoStore.shared.get()
        let server = try ServeProcess(["--db", demo.database, "--port", "0"])
        defer { server.stop() }
        let url = server.url + "lookup?user=" + Self.paidNothing + "&tz=Europe/Berlin"
        let profile = TemporaryDirectory("chromium-profile")

        let dom = try Browser.run(chromium, profile: profile.path, ["--dump-dom", url])
        let answer = try demo.answerLine(Self.paidNothing)
        #expect(dom.contains("<p class=\"answer-line\" id=\"answer\">\(answer)</p>"), "\(dom.prefix(2_000))")
        #expect(dom.contains("(times in Europe/Berlin)"))

        let artifacts = Browser.artifactsDirectory()
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        let png = artifacts + "/serve-paid-nothing.png"
        try? FileManager.default.removeItem(atPath: png)
        _ = try Browser.run(chromium, profile: profile.path, ["--screenshot=\(png)", url])
        let data = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "a PNG")
        #expect(data.count > 20_000, "a rendered page, not a blank one (\(data.count) bytes)")
        print("screenshot: \(png)")
    }

    func get(_ url: String, bearer: String? = nil) async throws -> (String, Int) {
        var request = URLRequest(url: try #require(URL(string: url)))
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        return (String(decoding: data, as: UTF8.self), (response as? HTTPURLResponse)?.statusCode ?? 0)
    }
}

/// One demo store for the suite (generated once: 300 clean purchases, every finding kind).
final class DemoStore: @unchecked Sendable {
    static let shared = DemoStore()
    private let lock = NSLock()
    private var made: Result<Made, any Error>?
    private let dir = TemporaryDirectory("serve-demo")

    struct Made: Sendable {
        var database: String

        /// The first line `lookup --user` prints.
        func answerLine(_ user: String) throws -> String {
            let result = try runIAPRecon(["lookup", "--db", database, "--user", user])
            return String(result.stdout.prefix { $0 != "\n" })
        }
    }

    func get() throws -> Made {
        lock.lock()
        defer { lock.unlock() }
        if let made { return try made.get() }
        let result = Result { () throws -> Made in
            let run = try runIAPRecon(["demo", "--out", dir.file("demo"), "--purchases", "300"])
            guard run.exitCode == 0 else { throw DemoFailed(stderr: run.stderr) }
            // The demo ends by telling how to serve its store.
            guard run.stdout.contains("/iap-recon serve --db \(dir.file("demo/demo.sqlite"))\n") else {
                throw DemoFailed(stderr: "no serve line in: \(run.stdout)")
            }
            return Made(database: dir.file("demo/demo.sqlite"))
        }
        made = result
        return try result.get()
    }

    struct DemoFailed: Error { var stderr: String }
}

/// A running `iap-recon serve`; its URL is read from the line it prints on start.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let url: String
    private let out = Pipe()
    private let err = Pipe()
    private var stdoutText = ""
    private var stderrText = ""

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = productsDirectory().appendingPathComponent("iap-recon")
        process.arguments = ["serve"] + arguments
        var env = ProcessInfo.processInfo.environment
        env["IAP_RECON_SERVE_TOKEN"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // A server that never announces itself is stopped after 30 s, which ends the read.
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: watchdog)
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        watchdog.cancel()
        stdoutText = String(decoding: line, as: UTF8.self)
        guard let match = stdoutText.split(separator: " ").first(where: { $0.hasPrefix("http://") }) else {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw StartFailed(output: stdoutText + errors)
        }
        url = String(match)
    }

    /// Sends SIGTERM, waits, and returns the exit status.
    func terminate() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        stdoutText += String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        stderrText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return process.terminationStatus
    }

    func stop() {
        if process.isRunning { _ = terminate() }
    }

    var stdout: String { stdoutText }
    var stderr: String { stderrText }

    struct StartFailed: Error { var output: String }
}

/// Debian's headless Chromium.
enum Browser {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Where the screenshot is kept: `IAP_RECON_TEST_ARTIFACTS`, else `test-artifacts` next to
    /// the built products.
    static func artifactsDirectory() -> String {
        ProcessInfo.processInfo.environment["IAP_RECON_TEST_ARTIFACTS"]
            ?? productsDirectory().appendingPathComponent("test-artifacts").path
    }

    /// Runs headless Chromium (no network beyond the page, no profile left behind) and returns
    /// its standard output.
    static func run(_ chromium: String, profile: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-extensions", "--hide-scrollbars", "--window-size=1280,900", "--user-data-dir=\(profile)",
            ] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: watchdog)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return String(decoding: data, as: UTF8.self)
    }
}
