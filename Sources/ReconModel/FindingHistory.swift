import Foundation

/// A finding with its history across runs, as the store keeps it.
public struct FindingHistory: Sendable, Hashable {
    public var finding: Finding
    public var firstSeenAt: Int64
    public var lastSeenAt: Int64
    public var resolvedAt: Int64?
    /// First seen by this run.
    public var isNew: Bool

    package init(finding: Finding, firstSeenAt: Int64, lastSeenAt: Int64, resolvedAt: Int64? = nil, isNew: Bool) {
        self.finding = finding
        self.firstSeenAt = firstSeenAt
        self.lastSeenAt = lastSeenAt
        self.resolvedAt = resolvedAt
        self.isNew = isNew
    }
}
