import AppleData
import ReconModel

/// The latest as-of of the findings history: a report with an earlier `--as-of` reads the history,
/// never writes it (``FindingRepository/lookUpRunFindings()``).
extension SQLFindings {
    /// The latest as-of the findings history was recorded at; nil when nothing was recorded.
    public func latestFindingsAsOf() throws(StoreError) -> Int64? {
        let statement = try db.prepare(
            "SELECT at AS latest FROM findings_recorded")
        guard try statement.step() else { return nil }
        return SQLRow(statement, table: FindingsRow.table).optionalInt64("latest")
    }
}
