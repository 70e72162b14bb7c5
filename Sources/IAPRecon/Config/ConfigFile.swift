import AppleData
import Foundation
import ReconFindings
import ReconImport
import ReconLookup
import ReconModel
import ReconReports
import ReconStorage
import ReconVerify

/// The `--config FILE` format: one JSON object whose keys are the long option names (``ReconConfig/keys``),
/// decoded onto a ``ReconConfig`` that carries the defaults.
///
/// `version` must be ``currentVersion`` when present. Every value is checked while the file is
/// read, and a problem names the file and the key (never a raw decoding error).
public enum ConfigFile {
    /// The format this program reads.
    public static let currentVersion = 1

    /// Every key a config file may hold, with what it sets and its default (read from ``ReconConfig``).
    public static var keys: [String: String] {
        Dictionary(uniqueKeysWithValues: ReconConfig.keys.map { ($0.name, $0.help) })
    }

    /// Reads and checks the file at `path`, setting every key it holds on `config`.
    ///
    /// - Throws: ``ConfigError`` naming the file, and the key when one is at fault.
    public static func load(_ path: String, onto config: ReconConfig) throws(ConfigError) -> ReconConfig {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? "no such file or not readable"
            throw .unreadableFile(path: path, reason: reason)
        }
        let values: Values
        do {
            values = try JSONDecoder().decode(Values.self, from: data)
        } catch let problem as KeyProblem {
            throw .invalid(key: "\(problem.key) in \(path)", value: problem.value, expected: problem.expected)
        } catch let unknown as UnknownKey {
            throw .unknownKey(file: path, key: unknown.key)
        } catch {
            throw .unreadableFile(path: path, reason: "not a JSON object")
        }
        var config = config
        for (key, input) in values.inputs {
            do {
                try key.set(input, on: &config)
            } catch {
                throw .invalid(key: "\(key.name) in \(path)", value: error.value, expected: error.expected)
            }
        }
        return config
    }

    /// A value the file holds that is not what its key takes.
    package struct KeyProblem: Error {
        package var key: String
        package var value: String
        package var expected: String
    }

    /// A key the format does not have.
    package struct UnknownKey: Error {
        package var key: String
    }

    package struct CodingName: CodingKey {
        package var stringValue: String
        package var intValue: Int? { nil }
        package init(stringValue: String) { self.stringValue = stringValue }
        package init?(intValue: Int) { nil }
    }

    /// The file's values in the order of ``ReconConfig/keys``, each in the shape its key takes.
    package struct Values: Decodable {
        package var inputs: [(ReconConfig.Key, ReconConfig.Input)] = []

        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingName.self)
            let known = Set(ReconConfig.keys.map(\.name))
            for name in c.allKeys.map(\.stringValue).sorted() where !known.contains(name) {
                throw UnknownKey(key: name)
            }
            for key in ReconConfig.keys {
                let name = CodingName(stringValue: key.name)
                guard c.contains(name) else { continue }
                inputs.append((key, try Self.input(c, name, for: key)))
            }
        }

        /// A value in its key's shape: a list for a list, a boolean for a flag, else text (a number is taken as its
        /// text).
        package static func input(
            _ c: KeyedDecodingContainer<CodingName>, _ name: CodingName, for key: ReconConfig.Key
        ) throws -> ReconConfig.Input {
            switch key.kind {
            case .list:
                if let value = try? c.decode(String.self, forKey: name) { return .text(value) }
                if let value = try? c.decode([String].self, forKey: name) { return .list(value) }
            case .bool:
                if let value = try? c.decode(Bool.self, forKey: name) { return .flag(value) }
            default:
                if let value = try? c.decode(String.self, forKey: name) { return .text(value) }
                if let value = try? c.decode(Int64.self, forKey: name) { return .text(String(value)) }
                if let value = try? c.decode(Double.self, forKey: name) { return .text(String(value)) }
            }
            throw KeyProblem(key: key.name, value: shown(c, name), expected: key.expected)
        }

        /// What kind of JSON value a key holds, for an error line (never the value: it may be a secret).
        package static func shown(_ c: KeyedDecodingContainer<CodingName>, _ name: CodingName) -> String {
            if (try? c.decodeNil(forKey: name)) == true { return "null" }
            if (try? c.decode(Bool.self, forKey: name)) != nil { return "a boolean" }
            if (try? c.decode([String: Int].self, forKey: name)) != nil { return "an object" }
            if (try? c.decode([Int].self, forKey: name)) != nil { return "a list of numbers" }
            return "a value of another type"
        }
    }
}

extension ReconConfig {
    /// Every key a config file may hold (``ConfigFile/keys``).
    public static var fileKeys: [String: String] { ConfigFile.keys }

    /// Applies a JSON config file (``ConfigFile``).
    ///
    /// - Throws: ``ConfigError`` naming the file and the key.
    public mutating func apply(configFile path: String) throws(ConfigError) {
        self = try ConfigFile.load(path, onto: self)
    }
}
