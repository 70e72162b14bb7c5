import AppleData
import Foundation
import Logging
import ReconFindings
import ReconImport
import ReconLookup
import ReconModel
import ReconReports
import ReconStorage
import ReconVerify

/// `iap-recon run`, the nightly job: import → decode → verify → detect → report, recorded as one run under the
/// store's lock.
///
/// `report` is the same run without import and network.
public struct NightlyRun {
    package let deps: ReconDependencies
    package var progress: RunProgress?

    public init(_ deps: ReconDependencies, progress: RunProgress? = nil) {
        self.deps = deps
        self.progress = progress
    }

    /// The nightly job.
    ///
    /// Import happens when `request` names files or `database` is given (CONTRACT §1.7).
    public func run(_ request: ImportRequest, database: LedgerDatabase? = nil) async throws -> CommandOutput {
        let recorder = try RunRecorder(command: "run", deps, outputDirectory: deps.settings.outputDirectory)
        var lines: [String] = []

        if !request.isEmpty || database != nil {
            let imported = try await recorder.stage("import", counts: \.counts) {
                try await deps.importStage(progress: progress).run(
                    request, database: database, in: recorder.context)
            }
            recorder.update {
                $0.inputs = imported.files
                $0.counts.read = imported.read
                $0.counts.accepted = imported.accepted
                $0.counts.rejected = imported.rejected
            }
            lines += imported.lines
        }

        // Decoding and verifying are one entry ("verify") in the nightly run's record.
        let verified = try await deps.decodeAndVerify(recorder, decodingRecordedAs: "verify", progress: progress)
        lines += VerifyStage.lines(verified)

        let outcome = try detectAndReport(recorder)
        return CommandOutput(outcome.status, lines: lines + outcome.lines)
    }

    /// `iap-recon report`: decode → detect → report, from the store, without network.
    public func report() async throws -> CommandOutput {
        let recorder = try RunRecorder(command: "report", deps, outputDirectory: deps.settings.outputDirectory)
        _ = try await recorder.stage("decode", counts: { ["receipts_decoded": $0] }) {
            try await deps.decodeStage().run(store: deps.store, in: recorder.context, logger: deps.logger)
        }
        return try detectAndReport(recorder)
    }

    /// The common end of `run` and `report`: detect, write the reports, complete the run, and
    /// decide how the command ends.
    package func detectAndReport(_ recorder: RunRecorder) throws -> CommandOutput {
        let engine = deps.detectionEngine()
        let detected = try recorder.stage(
            "detect",
            counts: {
                [
                    "findings": $0.findings.totals.count, "transactions_judged": $0.judgedTransactions,
                    "incremental": $0.judgedEverything ? 0 : 1,
                ]
            }
        ) {
            try engine.detect(asOf: recorder.asOf, runID: recorder.runID)
        }
        let findings = detected.findings

        let reportStage = deps.reportStage()
        // How much of revenue_schedule.csv was copied from the last report's file, and how much written from the store.
        let scheduleCounts = { (report: ReconciliationReport) in
            [
                "schedule_lines_copied": report.revenueScheduleLines.copied,
                "schedule_lines_written": report.revenueScheduleLines.written,
            ]
        }
        let report = try recorder.stage("report", counts: scheduleCounts) {
            var timer = PhaseTimer("report", clock: deps.clock, logger: deps.logger)
            var report = try reportStage.assemble(
                store: deps.store, asOf: recorder.asOf, revenue: detected.revenue, findings: findings,
                run: recorder.record, sales: detected.sales, monthClose: detected.monthClose,
                subscriptions: detected.subscriptions, appleWord: detected.appleWord, deferred: detected.deferred,
                deferredJudgedEverything: detected.judgedEverything, deferredRestatements: detected.deferredRestatements
            )
            timer.lap("assemble")
            try reportStage.write(&report, store: deps.store)
            timer.lap("files")
            try engine.commit(detected, asOf: report.asOf, schedule: report.revenueSchedule)
            timer.lap("keep what was shown")
            return report
        }
        recorder.update { record in
            let stages = record.stages
            record = report.run
            record.stages = stages
        }

        var status = ExitStatus.forFindings(findings.totals, failOn: deps.settings.failOn)
        if deps.settings.strict, recorder.record.counts.rejected > 0 { status = .failed }
        try recorder.finish(status)
        return CommandOutput(status, lines: [ReportStage.summaryLine(report)])
    }
}

extension VerifyStageSummary {
    /// The counts a run record keeps for the verify stage.
    package var counts: [String: Int] {
        var counts = [
            "receipts_decoded": receiptsDecoded, "verified": verified, "invalid": invalid, "unreachable": unreachable,
            "no_evidence": noEvidence, "requests": requests,
        ]
        if let sweep {
            counts["history_pages"] = sweep.pages
            counts["history_new_notifications"] = sweep.newNotifications
            counts["history_rejected"] = sweep.rejected
            counts["history_open_windows"] = sweep.openWindows.count
            if !sweep.unservedGaps.isEmpty { counts["history_unserved_gaps"] = sweep.unservedGaps.count }
        }
        if let subscriptions {
            counts["subscription_statuses_asked"] = subscriptions.asked
            counts["subscription_statuses"] = subscriptions.recorded
            counts["subscription_statuses_not_found"] = subscriptions.notFound
            counts["subscription_statuses_unreachable"] = subscriptions.unreachable
            counts["subscription_statuses_rejected"] = subscriptions.rejected
            counts["subscription_statuses_after_as_of"] = subscriptions.afterAsOf
        }
        return counts
    }
}
