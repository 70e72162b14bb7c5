/// Which kind of input file a row came from.
public enum InputKind: String, Sendable, Hashable, CaseIterable {
    case transactions, receipts, products
    /// Apple Summary Sales Reports (CONTRACT §1.5).
    case salesReports = "sales-report"
    /// App Store Server Notifications V2 as the webhook stored them (`.jsonl`).
    case notifications
    /// The backend's subscription access (CONTRACT §1.8).
    case entitlements
    /// Who agreed to share consumption information with Apple (CONTRACT §1.10).
    case consents
}

/// An input row that was not accepted, kept with where it came from and why.
public struct RejectedRow: Sendable, Hashable {
    public var kind: InputKind
    /// The file as named on the command line.
    public var source: String
    /// The physical line the row starts on (the header is line 1).
    public var line: Int
    /// The row's own id, when it could be read.
    public var recordID: String?
    public var reason: String
    /// The row's text as it was in the file.
    public var raw: String

    public init(kind: InputKind, source: String, line: Int, recordID: String?, reason: String, raw: String) {
        self.kind = kind
        self.source = source
        self.line = line
        self.recordID = recordID
        self.reason = reason
        self.raw = raw
    }
}
