import Foundation
import ReconModel
import ReconStorage

extension DetectionEngine {
    /// One original-transaction group as judged beside the parts' sort: only a group with findings or a moment of
    /// change, the ones whose results are kept (``TransactionResultsWriter/addOriginal(_:findings:nextChange:)``).
    struct JudgedOriginal: Sendable {
        var id: String
        var findings: [Finding]
        var nextChange: Int64?
    }

    /// Judges the original-transaction groups (all, or those with a changed row or whose moment came), keeps their
    /// results and commits everything judged so far.
    ///
    /// Judging every transaction of a store with a second reader (``concurrentLedger``), the groups are judged there,
    /// on a thread of their own, while this connection sorts the transactions' parts into their table (the commit);
    /// their results are then kept in the order they were judged, as judged here. Otherwise they are judged here, then
    /// committed. The results and the findings are the same either way.
    func judgeOriginalGroupsAndKeepResults(
        _ stage: DetectStage, plan: TransactionPlan, results: any TransactionResultsWriter, spool: any RunFindingSpool,
        asOf: Int64, timer: inout PhaseTimer
    ) throws {
        if plan.everything, let open = concurrentLedger {
            let (context, detectors) = (stage.context, stage.detectors)
            let originals = BackgroundWork { () throws -> [JudgedOriginal] in
                let ledger = try open()
                var judged: [JudgedOriginal] = []
                try DetectStage(context: context, detectors: detectors).judgeOriginalGroups(
                    ledger.forEachOriginalTransactionGroup
                ) { id, findings, nextChange in
                    guard !findings.isEmpty || nextChange != nil else { return }
                    judged.append(JudgedOriginal(id: id, findings: findings, nextChange: nextChange))
                }
                return judged
            }
            // However this leaves, the thread is waited for.
            defer { _ = try? originals.join() }
            try results.commit()
            timer.lap("results kept (parts sorted), original transactions judged beside")
            for group in try originals.join() {
                try results.addOriginal(group.id, findings: group.findings, nextChange: group.nextChange)
                for finding in group.findings { try spool.add(finding) }
            }
            try results.commit()
            timer.lap("original transactions kept")
            return
        }
        try stage.judgeOriginalGroups(
            plan.everything
                ? ledger.forEachOriginalTransactionGroup : revenueRecords.forEachRerunOriginalTransactionGroup
        ) { originalID, findings, nextChange in
            try results.addOriginal(originalID, findings: findings, nextChange: nextChange)
            if plan.everything { for finding in findings { try spool.add(finding) } }
        }
        if !plan.everything {
            try spool.flush()
            try revenueRecords.spoolKeptOriginalFindings(asOf: asOf)
        }
        timer.lap("original transactions")
        try results.commit()
        timer.lap("results kept (parts sorted when judging everything)")
    }
}
