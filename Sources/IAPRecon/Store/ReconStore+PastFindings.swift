/// Findings for a report whose `--as-of` is earlier than the latest one recorded: read, never
/// written (the findings history belongs to the latest as-of).
extension ReconStore {
    /// The latest as-of the findings history was recorded at; nil when nothing was recorded.
    public func latestFindingsAsOf() throws(StoreError) -> Int64? {
        let statement = try db.prepare(
            "SELECT MAX(MAX(last_seen_at), COALESCE(MAX(resolved_at), 0)) AS latest FROM findings")
        guard try statement.step() else { return nil }
        return SQLiteRow(statement, table: FindingsRow.table).optionalInt64("latest")
    }

    /// `findings` with the history the store already has for them (first sighting of an open
    /// finding), without recording anything.
    public func findingsWithoutRecording(_ findings: [Finding], at time: Int64) throws(StoreError) -> [FindingHistory] {
        let lookup = try db.prepare(
            "SELECT first_seen_at AS first_seen_at FROM findings WHERE fingerprint = ? AND resolved_at IS NULL")
        var current: [FindingHistory] = []
        current.reserveCapacity(findings.count)
        for finding in findings {
            try lookup.bind([.text(finding.fingerprint)])
            let known = try lookup.step() ? SQLiteRow(lookup, table: FindingsRow.table).int64("first_seen_at") : nil
            current.append(
                FindingHistory(
                    finding: finding, firstSeenAt: min(known ?? time, time), lastSeenAt: time, resolvedAt: nil,
                    isNew: known == nil))
        }
        return current
    }
}
