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
    /// The configuration table of `docs/configuration.md`, one row per line.
    static func configurationTableRows() throws -> [String] {
        let page = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/configuration.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        let table = text.components(separatedBy: "\n| key / flag | default | meaning |\n").dropFirst().first ?? ""
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.prefix { $0.hasPrefix("|") }.filter { $0.hasPrefix("| `") }
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
