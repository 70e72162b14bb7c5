import ReconModel

/// The latest run a store recorded: what support's lookup says of how fresh the store is.
public struct LastRun: Sendable, Hashable {
    /// `run`, `verify` or `report`.
    public var command: String
    /// The "now" it judged at (`--as-of`, else its start): what the store knows, it knows as of then.
    public var asOf: Int64
}

extension ReconStore {
    /// The finished run with the latest as-of, if any (an `import` alone is not a run; a rerun for an earlier
    /// as-of does not make the store older).
    ///
    /// Read from the run log alone, never the clock, so the same store gives the same answer on either engine.
    public func lastRun() throws(StoreError) -> LastRun? {
        let stmt = try db.prepare(
            """
            SELECT command, as_of FROM runs WHERE finished_at IS NOT NULL ORDER BY as_of DESC, run_id DESC NULLS LAST LIMIT 1
            """)
        guard try stmt.step() else { return nil }
        return LastRun(command: stmt.text(0), asOf: stmt.int64(1))
    }
}
