import Foundation

/// A finding with its history across runs, as the store keeps it.
public struct FindingHistory: Sendable, Hashable {
    public var finding: Finding
    public var firstSeenAt: Int64
    public var lastSeenAt: Int64
    public var resolvedAt: Int64?
    /// First seen by this run.
    public var isNew: Bool
}
