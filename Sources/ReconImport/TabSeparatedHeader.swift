import AppleData
import ReconModel
import ReconStorage

/// The column positions of an Apple report's tab-separated header line, read by name (extra columns ignored, the
/// first of duplicate names wins): the one reading of a header for Sales Reports and Financial Reports alike.
package struct TabSeparatedHeader<Column: RawRepresentable & CaseIterable & Hashable> where Column.RawValue == String {
    package var index: [Column: Int]
    /// How many fields the header has: every row must have as many.
    package var width: Int

    /// - Parameters:
    ///   - optional: columns a report may lack.
    ///   - report: what the file should be, for the error (`an Apple Summary Sales Report`).
    /// - Throws: ``ImportFileError/readFailed(path:reason:)`` naming the required columns the header lacks.
    package init(_ header: String, path: String, optional: Set<Column> = [], report: String) throws(ImportFileError) {
        let names = Self.fields(header.hasPrefix("\u{FEFF}") ? String(header.dropFirst()) : header)
        var index: [Column: Int] = [:]
        for (position, name) in names.enumerated() {
            if let column = Column(rawValue: name), index[column] == nil { index[column] = position }
        }
        let missing = Column.allCases.filter { index[$0] == nil && !optional.contains($0) }.map { "'\($0.rawValue)'" }
        guard missing.isEmpty else {
            throw .readFailed(path: path, reason: "not \(report) (header lacks \(missing.joined(separator: ", ")))")
        }
        self.index = index
        width = names.count
    }

    /// A line's fields, surrounding blanks trimmed.
    package static func fields(_ line: String) -> [String] {
        line.split(separator: "\t", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
