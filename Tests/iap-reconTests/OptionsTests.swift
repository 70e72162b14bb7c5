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
        case .choice(let path, let words):
            let word = words.first { $0 != defaults[keyPath: path] } ?? words[0]
            return ([word], "\"\(word)\"")
        case .time: return (["2026-11-20T00:00:00Z"], "\"2026-11-20T00:00:00Z\"")
        case .day: return (["2026-11-01"], "\"2026-11-01\"")
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

    /// `serve`'s and `lookup`'s own flags; `run` takes every other one (its options are all the groups').
    static let serveFlags: Set = ["host", "port"]
    static let lookupFlags: Set = ["format"]
    static let answerFlags: Set = ["dry-run"]

    /// The help of the command that takes the flag `name`.
    static func help(of name: String) -> String {
        if serveFlags.contains(name) { return ServeCommand.helpMessage(columns: 10_000) }
        if lookupFlags.contains(name) { return LookupCommand.helpMessage(columns: 10_000) }
        if answerFlags.contains(name) { return AnswerConsumptionCommand.helpMessage(columns: 10_000) }
        return RunCommand.helpMessage(columns: 10_000)
    }

    /// What the command taking the flag `name` sets when given `arguments` (and `--db s.sqlite`).
    static func settings(_ name: String, _ arguments: [String]) throws -> [(String, ReconConfig.Input?)] {
        let db = ["--db", "s.sqlite"]
        if serveFlags.contains(name) {
            let command = try ServeCommand.parse(db + arguments)
            return command.store.settings + command.settings + command.options.settings
        }
        if lookupFlags.contains(name) {
            let command = try LookupCommand.parse(db + ["--user", "u"] + arguments)
            return command.store.settings + command.settings + command.options.settings
        }
        if answerFlags.contains(name) {
            let command = try AnswerConsumptionCommand.parse(db + arguments)
            return command.store.settings + command.settings + command.options.settings
        }
        let command = try RunCommand.parse(db + arguments)
        return command.store.settings + command.inputs.settings + command.reportOptions.settings
            + command.database.settings + command.options.settings
    }

    /// The help of the command taking each flag, wide enough not to wrap, shows it with its default.
    @Test(arguments: flagNames)
    func theHelpShowsEveryFlagWithItsDefault(name: String) throws {
        let key = try #require(ReconConfig.key(name))
        let help = Self.help(of: name).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let value = key.valueName.map { " <\($0)>" } ?? ""
        #expect(help.contains("--\(name)\(value) \(key.help)"), "\(help)")
    }

    /// A flag sets what the config file's key of the same name sets, read the same way.
    @Test(arguments: flagNames)
    func everyFlagSetsWhatItsKeySets(name: String) throws {
        let key = try #require(ReconConfig.key(name))
        var config = ReconConfig(databasePath: "s.sqlite")
        try config.apply(flags: try Self.settings(name, ["--\(name)"] + Self.sample(key).arguments))
        #expect(config == (try fromFile(key)))
        #expect(config != ReconConfig(databasePath: "s.sqlite"), "--\(name) was not set")
    }

    /// No flag is read twice or missed: the groups' settings name each flag's row once.
    @Test func theFlagGroupsCoverTheTableOnce() throws {
        let named = try Self.settings("run", []).map(\.0)
        let ownFlags = Self.serveFlags.union(Self.lookupFlags).union(Self.answerFlags)
        #expect(named.sorted() == Self.flagNames.filter { !ownFlags.contains($0) }.sorted())
        #expect(try Self.settings("port", []).map(\.0).filter(Self.serveFlags.contains).sorted() == ["host", "port"])
        #expect(try Self.settings("format", []).map(\.0).filter(Self.lookupFlags.contains) == ["format"])
        #expect(try Self.settings("dry-run", []).map(\.0).filter(Self.answerFlags.contains) == ["dry-run"])
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
        case .day(let path): config[keyPath: path] = "someday"
        case .version, .text, .optionalText, .list, .bool, .severity, .recognitionBasis, .choice, .time:
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
