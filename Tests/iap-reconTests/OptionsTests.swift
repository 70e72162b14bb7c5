import ArgumentParser
import Foundation
import IAPReconTestSupport
import Testing

@testable import IAPRecon
@testable import iap_recon

/// Every row of the key table reaches the three places that read it: the config file, the flags and checked().
///
/// The flags are tested through `--help` and their values, `checked()` through a value the row's kind refuses. A row
/// added to the table is tested here with nothing else written: its sample value comes from its kind.
@Suite struct OptionsTests {
    let dir = TemporaryDirectory("options")

    static let names = ReconConfig.keys.map(\.name)
    static let flagNames = ReconConfig.keys.filter { $0.flag != nil }.map(\.name)

    /// A value of the row's kind other than its default: the flag's arguments and the config file's JSON.
    static func sample(_ key: ReconConfig.Key) -> (arguments: [String], json: String) {
        let defaults = ReconConfig(databasePath: "")
        switch key.kind {
        case .version: return (["1"], "1")
        case .text(let path):
            let text = TimeZone(identifier: defaults[keyPath: path]) == nil ? "sample" : "Europe/Berlin"
            return ([text], "\"\(text)\"")
        case .url: return (["http://127.0.0.1:1/sample"], "\"http://127.0.0.1:1/sample\"")
        case .optionalText: return (["sample"], "\"sample\"")
        case .duration: return (["7m"], "\"7m\"")
        case .number(let path, let range):
            let number = defaults[keyPath: path] == range.lowerBound ? range.lowerBound + 1 : range.lowerBound
            return (["\(number)"], "\(number)")
        case .list: return (["sample"], "[\"sample\"]")
        case .bool: return ([], "true")
        case .severity: return (["high"], "\"high\"")
        case .ledgerStart: return (["2026-01-01"], "\"2026-01-01\"")
        case .recognitionBasis: return (["customer-price"], "\"customer-price\"")
        }
    }

    /// A configuration read from a config file holding only `key` at its sample value.
    func fromFile(_ key: ReconConfig.Key) throws -> ReconConfig {
        let path = try dir.write("\(key.name).json", "{\"\(key.name)\": \(Self.sample(key).json)}")
        var config = ReconConfig(databasePath: "s.sqlite")
        try config.apply(configFile: path)
        return config
    }

    @Test(arguments: names)
    func theConfigFileReadsEveryRow(name: String) throws {
        let key = try #require(ReconConfig.key(name))
        #expect(ConfigFile.keys[name] == key.help)
        let config = try fromFile(key)
        if name != "version" { #expect(config != ReconConfig(databasePath: "s.sqlite"), "\(name) was not set") }
        _ = try config.checked()
    }

    /// `run` takes every flag (its options are all the groups'); its help, wide enough not to wrap, shows each.
    @Test(arguments: flagNames)
    func theHelpShowsEveryFlagWithItsDefault(name: String) throws {
        let key = try #require(ReconConfig.key(name))
        let help = RunCommand.helpMessage(columns: 10_000).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let value = key.valueName.map { " <\($0)>" } ?? ""
        #expect(help.contains("--\(name)\(value) \(key.help)"), "\(help)")
    }

    /// A flag sets what the config file's key of the same name sets, read the same way.
    @Test(arguments: flagNames)
    func everyFlagSetsWhatItsKeySets(name: String) throws {
        let key = try #require(ReconConfig.key(name))
        let command = try RunCommand.parse(["--db", "s.sqlite", "--\(name)"] + Self.sample(key).arguments)
        var config = ReconConfig(databasePath: "s.sqlite")
        try config.apply(flags: command.reportOptions.settings + command.database.settings + command.options.settings)
        #expect(config == (try fromFile(key)))
        #expect(config != ReconConfig(databasePath: "s.sqlite"), "--\(name) was not set")
    }

    /// No flag is read twice or missed: the groups' settings name each flag's row once.
    @Test func theFlagGroupsCoverTheTableOnce() throws {
        let command = try RunCommand.parse(["--db", "s.sqlite"])
        let named = (command.reportOptions.settings + command.database.settings + command.options.settings).map(\.0)
        #expect(named.sorted() == Self.flagNames.sorted())
    }

    /// ``ReconConfig/checked()`` refuses a value its row's kind does not allow, naming the row.
    @Test(arguments: names)
    func checkedRefusesABadValueNamingTheRow(name: String) throws {
        let key = try #require(ReconConfig.key(name))
        var config = ReconConfig(databasePath: "s.sqlite")
        switch key.kind {
        case .duration(let path): config[keyPath: path] = -1
        case .number(let path, let range): config[keyPath: path] = range.upperBound + 1
        case .url(let path): config[keyPath: path] = "ftp://sample"
        case .ledgerStart(let path): config[keyPath: path] = "soon"
        case .version, .text, .optionalText, .list, .bool, .severity, .recognitionBasis:
            return  // read as any text, or typed already
        }
        let error = try #require(throws: ConfigError.self) { try config.checked() }
        guard case .invalid(let named, _, _) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(named == name)
    }
}
