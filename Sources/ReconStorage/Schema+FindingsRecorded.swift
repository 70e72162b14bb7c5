import AppleData
import ReconModel

/// The findings history written where it changed (CONTRACT §5 "Incremental reports"): a report records its findings
/// by writing the new, changed and resolved ones, not every open one again.
///
/// An open finding was seen by every recording since it was last written, so its `last_seen_*` columns hold the
/// recording that last wrote it, and the latest recording (`findings_recorded`) is when it was last seen. A finding
/// resolved gets the recording before the one that resolved it as its last sighting. A finding whose detail states
/// an age ("26 h after purchase") keeps the words around it (`aged_*`, as the kept results do, its `detail` empty)
/// and is worded at its last sighting when read, so it is not written again only because a night made it older.
extension Schema {
    /// The latest recording (seeded from the history a store already has) and the open findings by fingerprint, so
    /// resolving reads the open findings, not years of resolved ones; the resolved ones by the run that resolved them.
    package static let findingsRecorded = """
        CREATE TABLE findings_recorded (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            run INTEGER NOT NULL,
            at INTEGER NOT NULL
        );
        INSERT INTO findings_recorded (id, run, at)
            SELECT 1, run, at FROM (
                SELECT last_seen_run AS run, last_seen_at AS at FROM findings
                UNION ALL SELECT resolved_run, resolved_at FROM findings WHERE resolved_at IS NOT NULL)
            ORDER BY at DESC, run DESC LIMIT 1;
        ALTER TABLE findings ADD COLUMN aged_before TEXT;
        ALTER TABLE findings ADD COLUMN aged_since INTEGER;
        ALTER TABLE findings ADD COLUMN aged_after TEXT;
        CREATE INDEX findings_open ON findings(fingerprint) WHERE resolved_at IS NULL;
        CREATE INDEX findings_by_resolved_run ON findings(resolved_run, resolved_at) WHERE resolved_run IS NOT NULL;
        """
}
