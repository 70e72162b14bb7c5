import Foundation
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

/// The key table: each setting written once, and what `docs/configuration.md` and `--help` say read from it.
@Suite struct ConfigKeysTests {
    /// The folder of `Package.swift`: the nearest above this file.
    static var packageRoot: URL {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
            folder.path != "/"
        {
            folder.deleteLastPathComponent()
        }
        return folder
    }

    /// The configuration tables of `docs/configuration.md`, one row per line.
    static func configurationTableRows() throws -> [String] {
        let page = Self.packageRoot.appendingPathComponent("docs/configuration.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        return text.components(separatedBy: "\n| key / flag | default | meaning |\n").dropFirst().flatMap { table in
            let lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            return lines.prefix { $0.hasPrefix("|") }.filter { $0.hasPrefix("| `") }
        }
    }

    @Test func everyKeyHasOneRowInTheConfigurationTableWithItsDefault() throws {
        let rows = try Self.configurationTableRows()
        #expect(!rows.isEmpty, "no configuration table in docs/configuration.md")
        for key in ReconConfig.keys {
            let row = rows.first { $0.contains("`\(key.name)`") }
            #expect(row != nil, "no docs/configuration.md row for \(key.name)")
            if let row {
                let columns = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                #expect(columns.count > 1 && columns[1].contains(key.defaultText), "\(key.name): \(row)")
            }
        }
    }

    /// CONTRACT §2's configuration table, one row per line.
    static func contractRows() throws -> [String] {
        let contract = Self.packageRoot.appendingPathComponent("docs/CONTRACT.md")
        let text = try String(contentsOf: contract, encoding: .utf8)
        let section = text.components(separatedBy: "**Configuration.**").last?.components(separatedBy: "\n## ").first
        return (section ?? "").split(separator: "\n").map(String.init).filter { $0.hasPrefix("| `") }
    }

    /// The text between backticks in `text`, in order.
    static func codeSpans(_ text: some StringProtocol) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// What the contract promises is what a fresh configuration holds: each default the contract's table writes as
    /// a value (`15s`, `8`; words like "none" or "Apple's" are not values) is its key's.
    @Test func theContractSaysEachDefault() throws {
        var compared: [String] = []
        for row in try Self.contractRows() {
            let columns = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard columns.count > 1 else { continue }
            let names = Self.codeSpans(columns[0]).filter { !$0.hasPrefix("--") }
            let values = Self.codeSpans(columns[1])
            guard values.count == names.count else { continue }
            for (name, value) in zip(names, values) {
                #expect(ReconConfig.key(name)?.defaultText == value, "\(name): \(row)")
                compared.append(name)
            }
        }
        #expect(compared.contains("request-timeout") && compared.contains("concurrency"))
        #expect(compared.count >= 12, "\(compared)")
    }

    /// A default the HTTP layer has too is written once, there: a fresh configuration checks into Apple's endpoints,
    /// the default retries and a transport sized for them, and ReconSettings restates none of its own.
    @Test func eachDefaultIsWrittenOnce() throws {
        let config = ReconConfig(databasePath: "s.sqlite")
        let settings = try config.validated()
        #expect(settings.endpoints == AppStoreEndpoints.apple)
        #expect(try AppStoreEndpoints.parse() == AppStoreEndpoints.apple)
        #expect(AppStoreEndpoints() == AppStoreEndpoints.apple)
        let retry = RetryPolicy.default
        #expect(settings.retry == .init(attempts: retry.maxAttempts, budget: retry.budget, baseDelay: retry.baseDelay))
        #expect(AsyncHTTPTransport.Configuration() == .matching(settings.endpoints))
        #expect(settings.entitlementLookback == .milliseconds(config.entitlementLookbackMillis))
        #expect(settings.entitlementTolerance == .milliseconds(config.entitlementToleranceMillis))
        #expect(settings.fullReport == config.fullReport)
        #expect(settings.incrementalLimitPercent == config.incrementalLimitPercent)
    }

    @Test func helpSaysTheDefault() throws {
        let key = try #require(ReconConfig.key("finish-grace"))
        #expect(key.help == "How long after delivery finishing may take (default 24h).")
        #expect(ReconConfig.key("history-days")?.help.hasSuffix("(default 30; 1 to 180).") == true)
        #expect(ReconConfig.key("request-timeout")?.defaultText == "15s")
        #expect(ReconConfig.key("retry-base-delay")?.defaultText == "500ms")
    }

    @Test func aFlagAndAFileReadTheSameValueTheSameWay() throws {
        var config = ReconConfig(databasePath: "s.sqlite")
        let key = try #require(ReconConfig.key("concurrency"))
        #expect(throws: ReconConfig.Problem(value: "0", expected: "a whole number from 1 to 256")) {
            try key.set(.text("0"), on: &config)
        }
        try key.set(.text("32"), on: &config)
        #expect(config.concurrency == 32)
        config.trustedRoots = ["file.pem"]
        try #require(ReconConfig.key("trusted-root")).set(.list(["flag.pem"]), on: &config, fromFlag: true)
        #expect(config.trustedRoots == ["file.pem", "flag.pem"])
    }

    @Test func theServeTokenIsReadLikeEveryOtherVariable() {
        var config = ReconConfig(databasePath: "s.sqlite")
        config.applyEnvironment(["IAP_RECON_SERVE_TOKEN": "0123456789abcdef", "IAP_RECON_SHARED_SECRET": ""])
        #expect(config.serveToken == "0123456789abcdef")
        #expect(config.sharedSecret == nil)
        #expect(ReconConfig.environmentKeys.contains(ReconConfig.serveTokenVariable))
    }
}
