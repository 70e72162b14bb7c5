import ReconModel

/// Takes this run's findings as detection finds them; the first of two with the same fingerprint is kept.
///
/// ``FindingRepository/startRunFindings()`` starts one per run; ``SQLRunFindingSpool`` keeps them in SQLite.
package protocol RunFindingSpool: AnyObject {
    /// Adds `finding` unless one with its fingerprint is already in.
    func add(_ finding: Finding) throws

    /// Writes what is still held; called once detection is done.
    func flush() throws
}

extension SQLRunFindingSpool: RunFindingSpool {}
