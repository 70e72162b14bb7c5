import ReconModel
import ReconStorage

extension LookupReport {
    /// The line that says how fresh the store is: the last run, when it finished and the as-of it judged at.
    ///
    /// A purchase made after that run's import is not in the store yet, so "no purchases in the store" is dated.
    package static func freshness(_ last: LastRun?) -> String {
        guard let last else {
            return "store: no run recorded yet; Apple's answers and findings come with the first run"
        }
        return "store: last \(last.command) finished \(Timestamp.iso(last.finishedAt)), as of "
            + "\(Timestamp.iso(last.asOf)); anything later shows after the next run"
    }
}
