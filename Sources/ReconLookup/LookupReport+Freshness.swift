import ReconModel
import ReconStorage

extension LookupReport {
    /// The line that says how fresh the store is: the as-of of its latest run, and which command that was.
    ///
    /// A purchase made after that run's import is not in the store yet, so "no purchases in the store" is dated.
    /// The line reads the run log, not the clock: the same store answers the same, on either engine.
    package static func freshness(_ last: LastRun?) -> String {
        guard let last else {
            return "store: no run recorded yet; Apple's answers and findings come with the first run"
        }
        return "store: as of \(Timestamp.iso(last.asOf)), its latest run (\(last.command)); anything later shows "
            + "after the next run"
    }
}
