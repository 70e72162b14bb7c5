import ReconModel

/// Why a notification was refused.
public struct NotificationRejection: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
