import Foundation
import Logging

/// A swift-log handler writing one JSON object per line to stderr, for log shippers.
///
/// Keys: `ts` (UTC ISO 8601), `level`, `label`, `msg`, then the metadata. Callers never put
/// receipts, SQL arguments or secrets in metadata.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String

    public init(label: String) {
        self.label = label
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var object: [String: String] = [
            "ts": Timestamp.iso(Int64((Date().timeIntervalSince1970 * 1000).rounded())), "level": event.level.rawValue,
            "label": label, "msg": "\(event.message)",
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            object[key] = "\(value)"
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(object) else { return }
        FileHandle.standardError.write(data + Data("\n".utf8))
    }
}
