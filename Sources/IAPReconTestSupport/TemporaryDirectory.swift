import Foundation

/// A unique directory under the system temp folder, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory's path.
    public let path: String

    /// Creates a fresh directory named after `label`.
    public init(_ label: String = "iap-recon-test") {
        let base = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("\(label)-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let target = file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: target))
        return target
    }

    /// Reads `name` as UTF-8 text.
    public func read(_ name: String) throws -> String {
        try String(contentsOfFile: file(name), encoding: .utf8)
    }
}
