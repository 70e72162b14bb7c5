import Foundation
import Logging
import ReconFindings
import ReconModel
import ReconStorage

extension ReportStage {
    /// Writes `revenue_schedule.csv`, patched from the last report's file or whole: the same bytes either way.
    ///
    /// The file is patched when this report builds on the last report's results, else written whole; it is noted in
    /// `report.revenueSchedule`.
    ///
    /// The last report's file is patched only when this report judged only the transactions that can have changed
    /// (the detect stage's `incremental`), its as-of is after that report's, and the file is still where that report
    /// wrote it, with the size and CRC-32 the store recorded in the same transaction as the results it was written
    /// from. Its lines are read from where it is (a report folder per night reads the night before's), checked byte for
    /// byte as they are copied: a file edited, replaced or removed since is never merged, the schedule is written whole.
    func writeRevenueSchedule(_ report: inout ReconciliationReport, store: any ReportStore) throws
        -> CSVReports.RevenueScheduleWritten
    {
        let path = outputDirectory + "/revenue_schedule.csv"
        let deferred = report.deferred
        let why: String
        var level = Logger.Level.info
        if deferred.scheduleJudgedEverything != false {
            why = "the report judged every transaction"
        } else if let previous = try store.revenue.revenueScheduleRecord() {
            if deferred.asOf > previous.asOf {
                do {
                    let written = try CSVReports.patchRevenueSchedule(deferred, to: path, previous: previous) { each in
                        try store.revenue.forEachScheduleChange(since: previous.asOf, each)
                    }
                    logger.info(
                        "revenue_schedule.csv patched from the last report's",
                        metadata: [
                            "from": "\(previous.path)", "copied": "\(written.copied)", "written": "\(written.rendered)",
                            "not_copied": "\(written.dropped)",
                        ])
                    note(written, at: path, in: &report)
                    return written
                } catch let untrusted as UntrustedSchedule {
                    why = untrusted.reason
                    level = .notice
                }
            } else {
                why = "as-of not after the last report's"
            }
        } else {
            why = "no schedule of the last report recorded"
        }
        logger.log(level: level, "revenue_schedule.csv written whole", metadata: ["why": "\(why)"])
        let judgedEverything = deferred.scheduleJudgedEverything
        let written = try CSVReports.writeRevenueSchedule(deferred, to: path) { each in
            guard let judgedEverything else { return }
            try store.revenue.forEachReportedSale(judgedEverything: judgedEverything, each)
        }
        note(written, at: path, in: &report)
        return written
    }

    /// Starts writing `revenue_schedule.csv` whole on a thread of its own, beside the workbook.
    ///
    /// Only when this report judged every transaction and the store has a second reader
    /// (``ReportStore/concurrentReader``): the schedule's sales are committed by then, and the workbook is written
    /// meanwhile on this thread. Nil otherwise: ``writeRevenueSchedule(_:store:)`` writes it here. The bytes are the
    /// same either way.
    func startRevenueScheduleAlongside(_ report: ReconciliationReport, store: any ReportStore)
        -> BackgroundWork<CSVReports.RevenueScheduleWritten>?
    {
        guard report.deferred.scheduleJudgedEverything == true, let open = store.concurrentReader else { return nil }
        let (deferred, path) = (report.deferred, outputDirectory + "/revenue_schedule.csv")
        logger.info(
            "revenue_schedule.csv written whole",
            metadata: ["why": "the report judged every transaction", "beside": "reconciliation.xlsx"])
        return BackgroundWork {
            let reader = try open()
            return try CSVReports.writeRevenueSchedule(deferred, to: path) { each in
                try reader.revenue.forEachReportedSale(judgedEverything: true, each)
            }
        }
    }

    /// Waits for the schedule ``startRevenueScheduleAlongside(_:store:)`` started, and notes it in `report`.
    func finishRevenueSchedule(
        _ work: BackgroundWork<CSVReports.RevenueScheduleWritten>, _ report: inout ReconciliationReport
    ) throws -> CSVReports.RevenueScheduleWritten {
        let written = try work.join()
        note(written, at: outputDirectory + "/revenue_schedule.csv", in: &report)
        return written
    }

    /// What the store keeps of the file written at `path`: its absolute path, so the next report finds it from any
    /// working directory.
    private func note(
        _ written: CSVReports.RevenueScheduleWritten, at path: String, in report: inout ReconciliationReport
    ) {
        let absolute = realpath(path, nil).map { resolved in
            defer { free(resolved) }
            return String(cString: resolved)
        }
        report.revenueSchedule = RevenueScheduleRecord(
            path: absolute ?? URL(fileURLWithPath: path).standardizedFileURL.path, asOf: report.deferred.asOf,
            bytes: written.bytes, crc32: written.crc32)
        report.revenueScheduleLines = (written.copied, written.rendered)
    }
}
