import AppleData
import Foundation
import ReconFindings
import ReconImport
import ReconLookup
import ReconModel
import ReconReports
import ReconStorage
import ReconVerify

/// Owns one run: the store's lock, the run record and its stage timings.
///
/// It begins the run in the store's run log, and at the end writes `run.json` and the store's run row from the
/// same value (the same bytes), after every other report file is written.
public final class RunRecorder {
    /// The run so far.
    public private(set) var record: RunRecord
    /// The run every stage works in: its id, its as-of and the clock.
    public let context: RunContext
    /// "Now" for grace periods and reports: `--as-of`, or the run's start.
    public let asOf: Int64
    private let lock: RunLock
    private let store: ReconStore
    private let clock: any ReconClock

    /// Takes the store's lock and records the start of a `command` run.
    ///
    /// - Throws: ``StoreError/locked(holder:)`` when another process holds the lock.
    package init(command: String, _ deps: ReconDependencies, outputDirectory: String?) throws {
        lock = try deps.lock(command)
        store = deps.store
        clock = deps.clock
        let started = clock.nowMillis()
        asOf = deps.settings.asOf ?? started
        let runID = try store.beginRun(command: command, startedAt: started, asOf: asOf)
        context = RunContext(runID: runID, asOf: asOf, givenAsOf: deps.settings.asOf, clock: clock)
        record = RunRecord(
            runID: runID, command: command, version: IAPReconVersion.current, startedAt: Timestamp.iso(started),
            finishedAt: "", asOf: Timestamp.iso(asOf), timeZone: deps.settings.timeZone.identifier,
            store: deps.store.path, outputDirectory: outputDirectory)
        record.failOn = deps.settings.failOn?.rawValue
    }

    /// The run's id in the store.
    public var runID: Int64 { record.runID }

    /// Runs one stage and records how long it took and what it counted.
    ///
    /// A stage recorded under the name of the one before it adds to that entry.
    package func stage<T>(
        _ name: String, counts: (T) -> [String: Int] = { _ in [:] }, _ body: () async throws -> T
    ) async throws -> T {
        let start = clock.nowMillis()
        let result = try await body()
        note(name, durationMillis: clock.nowMillis() - start, counts: counts(result))
        return result
    }

    /// ``stage(_:counts:_:)`` for a synchronous stage.
    package func stage<T>(_ name: String, counts: (T) -> [String: Int] = { _ in [:] }, _ body: () throws -> T) throws
        -> T
    {
        let start = clock.nowMillis()
        let result = try body()
        note(name, durationMillis: clock.nowMillis() - start, counts: counts(result))
        return result
    }

    private func note(_ name: String, durationMillis: Int64, counts: [String: Int]) {
        if var last = record.stages.last, last.name == name {
            last.durationMillis += durationMillis
            last.counts.merge(counts, uniquingKeysWith: +)
            record.stages[record.stages.count - 1] = last
        } else {
            record.stages.append(.init(name: name, durationMillis: durationMillis, counts: counts))
        }
    }

    /// Changes the record (counts, findings, totals a stage worked out).
    package func update(_ change: (inout RunRecord) -> Void) {
        change(&record)
    }

    /// Completes the run: the exit status and finish time go into the record, which is then
    /// written to `run.json` in the output folder (when there is one) and to the store.
    @discardableResult
    package func finish(_ status: ExitStatus) throws -> RunRecord {
        record.exitCode = status.rawValue
        let finished = clock.nowMillis()
        record.finishedAt = Timestamp.iso(finished)
        let json = record.json()
        if let out = record.outputDirectory {
            try ReportFile.ensureDirectory(out)
            try ReportFile.write(json, to: out + "/run.json")
        }
        try store.finishRun(
            record.runID, finishedAt: finished, exitCode: status.rawValue,
            summaryJSON: String(decoding: json, as: UTF8.self))
        return record
    }
}
