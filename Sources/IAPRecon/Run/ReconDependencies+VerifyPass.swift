import AppleData
import ReconFindings
import ReconImport
import ReconLookup
import ReconModel
import ReconReports
import ReconStorage
import ReconVerify

/// The decode and verify pass `verify` and `run` share.
extension ReconDependencies {
    /// Decodes every receipt offline, then re-verifies every pending transaction with Apple, in `recorder`'s run;
    /// the verify counts go into its record.
    ///
    /// - Parameter decodingRecordedAs: the run-record entry decoding is timed under: `verify` records it as a
    ///   `decode` stage of its own, the nightly run folds it into its `verify` entry (each record's shape is kept
    ///   as `run.json` readers know it).
    package func decodeAndVerify(
        _ recorder: RunRecorder, decodingRecordedAs decodingEntry: String, progress: RunProgress?
    ) async throws -> VerifyStageSummary {
        let run = recorder.context
        let decoded = try await recorder.stage(decodingEntry, counts: { ["receipts_decoded": $0] }) {
            try await decodeStage().run(store: store, in: run, logger: logger)
        }
        var verified = try await recorder.stage("verify", counts: \.counts) {
            try await withAppleClients { apple in
                try await verifyStage(apple).run(store: store, in: run, logger: logger) { done, total in
                    progress?("verify", done, total)
                }
            }
        }
        verified.receiptsDecoded = decoded
        recorder.update {
            $0.counts.verified = verified.verified
            $0.counts.invalid = verified.invalid
            // Notification history Apple no longer keeps and no sweep got: said once, in the run that gave it up.
            if let gaps = verified.sweep?.warnings, !gaps.isEmpty { $0.warnings = ($0.warnings ?? []) + gaps }
        }
        return verified
    }
}
