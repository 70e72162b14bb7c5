import Logging

extension Logger {
    /// A logger that discards everything, for tests whose output is what they assert.
    public static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
}
