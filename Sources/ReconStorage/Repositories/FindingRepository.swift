import AppleData
import ReconModel

/// This run's findings and their history across runs.
///
/// ``SQLFindings`` keeps them in SQLite.
package protocol FindingRepository {
    /// The latest as-of the findings history was recorded at; nil when nothing was recorded.
    func latestFindingsAsOf() throws(StoreError) -> Int64?

    /// A finding with its history across runs (the read model lives in Model/).
    /// Starts this run's findings afresh (an earlier run's temporary table on this connection is dropped).
    ///
    /// From here temporary tables and sorts go to temporary files (`temp_store=FILE`), not memory: the findings and
    /// the sorts of detection and the report grow with the ledger, the report's memory must not.
    func startRunFindings() throws(StoreError) -> any RunFindingSpool

    /// Records this run's findings (``startRunFindings()``) in the history: new ones are inserted, changed ones
    /// rewritten, and previously open findings absent now are marked resolved; an open finding that reads the same is
    /// not written again (``Schema/findingsRecorded``).
    ///
    /// An open finding keeps its first sighting; a resolved one found again starts anew.
    func recordRunFindings(runID: Int64, at time: Int64) throws -> FindingTotals

    /// This run's findings with the history the store already has for them, recording nothing: for a report whose
    /// `--as-of` is earlier than the latest recorded (the history belongs to the latest as-of).
    func lookUpRunFindings() throws -> FindingTotals

    /// This run's findings in report order (``Finding/reportOrder(_:_:)``) with their history at `time` (the
    /// run's as-of): first seen when the store first saw them open, else now.
    func forEachRunFinding(at time: Int64, _ body: (FindingHistory) throws -> Void) throws

    /// The findings this run resolved (``recordRunFindings(runID:at:)``), in report order.
    func forEachFindingResolved(runID: Int64, at time: Int64, _ body: (FindingHistory) throws -> Void) throws
}

extension SQLFindings: FindingRepository {}
