import ReconModel

/// The last run a store recorded: what support's lookup says of how fresh the store is.
public struct LastRun: Sendable, Hashable {
    /// `run`, `verify` or `report`.
    public var command: String
    /// When it finished, by the clock.
    public var finishedAt: Int64
    /// The "now" it judged at (`--as-of`, else its start).
    public var asOf: Int64
}

extension ReconStore {
    /// The run that finished last, if any (an `import` alone is not a run).
    public func lastRun() throws(StoreError) -> LastRun? {
        let stmt = try db.prepare(
            """
            SELECT command, finished_at, as_of FROM runs WHERE finished_at IS NOT NULL
            ORDER BY finished_at DESC, run_id DESC LIMIT 1
            """)
        guard try stmt.step() else { return nil }
        return LastRun(command: stmt.text(0), finishedAt: stmt.int64(1), asOf: stmt.int64(2))
    }
}
