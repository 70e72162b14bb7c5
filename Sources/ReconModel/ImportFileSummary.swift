import Foundation

/// What happened to one input file.
///
/// `read == accepted + rejected` always holds.
public struct ImportFileSummary: Sendable, Hashable, Codable {
    public var kind: String
    public var file: String
    public var read: Int
    public var accepted: Int
    public var rejected: Int
    /// Columns the file names that its kind does not know (absent when none).
    public var warnings: [String]?
    /// Accepted rows deliberately not used (a sales report's rows of other product types).
    public var skipped = 0

    package init(
        kind: String, file: String, read: Int, accepted: Int, rejected: Int, warnings: [String]? = nil,
        skipped: Int = 0
    ) {
        self.kind = kind
        self.file = file
        self.read = read
        self.accepted = accepted
        self.rejected = rejected
        self.warnings = warnings
        self.skipped = skipped
    }

    /// `transactions.csv: read 10, accepted 9, rejected 1`.
    public var line: String {
        let note = skipped > 0 ? " (\(skipped) not in-app purchases, not compared)" : ""
        return "\(kind) \(file): read \(read), accepted \(accepted)\(note), rejected \(rejected)"
    }
}
