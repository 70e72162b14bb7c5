import AppleData
import ReconModel

/// The run log.
extension ReconStore {
    /// Starts a run record and returns its id.
    public func beginRun(command: String, startedAt: Int64, asOf: Int64) throws(StoreError) -> Int64 {
        try db.insert(
            "INSERT INTO runs (command, started_at, as_of) VALUES ($1, $2, $3)",
            [.text(command), .integer(startedAt), .integer(asOf)], returning: "run_id")
    }

    /// Completes a run record.
    public func finishRun(_ runID: Int64, finishedAt: Int64, exitCode: Int32, summaryJSON: String) throws(StoreError) {
        try db.prepare("UPDATE runs SET finished_at = $1, exit_code = $2, summary_json = $3 WHERE run_id = $4")
            .run([.integer(finishedAt), .integer(Int64(exitCode)), .text(summaryJSON), .integer(runID)])
    }
}

extension ReconStore {
    /// The record a finished run left (the same JSON as its `run.json`); nil while it runs.
    public func runRecordJSON(_ runID: Int64) throws(StoreError) -> String? {
        let stmt = try db.prepare("SELECT summary_json FROM runs WHERE run_id = $1")
        try stmt.bind([.integer(runID)])
        guard try stmt.step() else { return nil }
        return stmt.optionalText(0)
    }
}
