import Foundation

/// Where "now" comes from: the system clock in production, a fixed instant in tests and for
/// `--as-of` reruns.
public struct TimeSource: Sendable {
    private let read: @Sendable () -> Int64

    /// A time source returning `read()` epoch milliseconds.
    public init(_ read: @escaping @Sendable () -> Int64) {
        self.read = read
    }

    /// Epoch milliseconds now.
    public func nowMillis() -> Int64 { read() }

    /// The system clock.
    public static let system = TimeSource { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// Always `millis`.
    public static func fixed(_ millis: Int64) -> TimeSource { TimeSource { millis } }
}
