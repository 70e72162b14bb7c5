import Foundation
import Logging

/// The library's entry points, one per command. The executable only parses flags into a
/// ``ReconConfig`` and calls one of these; tests call them too.
public enum Jobs {
    /// What a command concluded: the exit code and the lines for standard output.
    public struct Outcome: Sendable {
        public var exitCode: Int32
        public var lines: [String]

        public init(exitCode: Int32, lines: [String]) {
            self.exitCode = exitCode
            self.lines = lines
        }
    }

    /// `iap-recon import`: loads the files into the store.
    public static func importFiles(
        _ request: ImportRequest, config: ReconConfig, clock: TimeSource = .system, logger: Logger,
        progress: ((String, Int) -> Void)? = nil
    ) throws -> Outcome {
        let store = try ReconStore(path: config.databasePath, clock: clock)
        let summaries = try Importer(progress: progress).run(request, into: store)
        var lines = summaries.map(\.line)
        let rejected = summaries.reduce(0) { $0 + $1.rejected }
        let read = summaries.reduce(0) { $0 + $1.read }
        let accepted = summaries.reduce(0) { $0 + $1.accepted }
        lines.append("total: read \(read), accepted \(accepted), rejected \(rejected)")
        if rejected > 0 {
            logger.warning("rows rejected; see rejected.csv after the next report", metadata: ["rejected": "\(rejected)"])
        }
        if config.strict, rejected > 0 {
            lines.append("failing: \(rejected) row\(rejected == 1 ? "" : "s") rejected and --strict is set")
            return Outcome(exitCode: 1, lines: lines)
        }
        return Outcome(exitCode: 0, lines: lines)
    }

    /// `iap-recon report`: detects and writes the reports from the store, without network.
    public static func report(config: ReconConfig, clock: TimeSource = .system, logger: Logger) async throws -> Outcome {
        let trust = try config.trustStore()
        let store = try ReconStore(path: config.databasePath, clock: clock)
        let started = clock.nowMillis()
        let decoded = try await ReceiptDecodeStage(
            decoder: ReceiptDecoder(trust: trust, expectedBundleIDs: Set(config.bundleIDs)), clock: clock
        ).run(store: store, logger: logger)
        var summary = try beginRun("report", startedAt: started, store: store, config: config)
        summary.stages.append(
            .init(name: "decode", durationMillis: clock.nowMillis() - started, counts: ["receipts_decoded": decoded]))
        return try detectAndReport(store: store, summary: summary, config: config, clock: clock, logger: logger)
    }

    /// Records the start of a run in the store and returns its summary, to be completed.
    static func beginRun(_ command: String, startedAt: Int64, store: ReconStore, config: ReconConfig) throws -> RunSummary {
        let asOf = config.asOf ?? startedAt
        let runID = try store.beginRun(command: command, startedAt: startedAt, asOf: asOf)
        var summary = RunSummary(
            runID: runID, command: command, version: IAPReconVersion.current, startedAt: Timestamp.iso(startedAt),
            finishedAt: "", asOf: Timestamp.iso(asOf), timeZone: config.timeZone, store: config.databasePath,
            outputDirectory: config.outputDirectory)
        summary.failOn = config.failOn?.rawValue
        return summary
    }

    /// The common end of `report` and `run`: detect, write every report, complete the run record,
    /// and decide the exit code (3 for findings at or above `--fail-on`; 1 under `--strict` when
    /// this run rejected input rows).
    static func detectAndReport(
        store: ReconStore, summary: RunSummary, config: ReconConfig, clock: TimeSource, logger: Logger
    ) throws -> Outcome {
        let job = ReportJob(config: config, clock: clock, logger: logger)
        var report = try job.run(store: store, summary: summary)
        var exitCode = exitCode(for: report.findings.map(\.finding), failOn: config.failOn)
        if config.strict, summary.counts.rejected > 0 { exitCode = 1 }
        report.run.exitCode = exitCode
        report.run.finishedAt = Timestamp.iso(clock.nowMillis())
        try job.write(report)
        try store.finishRun(
            summary.runID, finishedAt: clock.nowMillis(), exitCode: exitCode,
            summaryJSON: String(decoding: report.run.json(), as: UTF8.self))
        return Outcome(exitCode: exitCode, lines: [summaryLine(report)])
    }

    /// 3 when a finding at or above `failOn` exists, else 0.
    public static func exitCode(for findings: [Finding], failOn: Severity?) -> Int32 {
        guard let failOn else { return 0 }
        return findings.contains { $0.severity <= failOn } ? 3 : 0
    }

    /// One line saying what the run concluded.
    static func summaryLine(_ report: ReconciliationReport) -> String {
        let net = report.totalsByCurrency.map { "\(Money(milliunits: $0.net, currency: $0.currency).formatted) \($0.currency)" }
        let bySeverity = Severity.allCases.compactMap { s -> String? in
            let n = report.findings.filter { $0.finding.severity == s }.count
            return n > 0 ? "\(n) \(s.rawValue)" : nil
        }
        var parts = ["findings: \(report.findings.count)"]
        if !bySeverity.isEmpty { parts[0] += " (" + bySeverity.joined(separator: ", ") + ")" }
        parts.append("net revenue: " + (net.isEmpty ? "none" : net.joined(separator: ", ")))
        parts.append("pending: \(report.pendingTotal)")
        parts.append("rejected rows: \(report.rejected.count)")
        parts.append("reports: \(report.run.outputDirectory ?? "")")
        return parts.joined(separator: "; ")
    }
}

extension Jobs {
    /// `iap-recon lookup`: the support view of a user, transaction or order, from the store.
    ///
    /// An order id is first resolved to its transactions with Apple's Look Up Order ID, which
    /// needs App Store Server API credentials; everything else works offline.
    public static func lookup(_ subject: LookupSubject, config: ReconConfig, json: Bool, logger: Logger) async throws
        -> Outcome
    {
        let answer = try await Lookup.answer(subject, config: config, logger: logger)
        let text = json ? answer.json() : answer.text()
        return Outcome(exitCode: 0, lines: [String(text.dropLast())])
    }
}
