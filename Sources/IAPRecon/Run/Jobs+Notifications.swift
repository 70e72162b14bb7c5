import Foundation
import Logging

/// Importing App Store Server Notifications alongside the other inputs.
extension Jobs {
    /// `iap-recon import`: the ledger, receipts and catalog (``importFiles(_:config:clock:logger:progress:)``),
    /// then the notification files, each verified before it is kept.
    public static func importAll(
        _ request: ImportRequest, config: ReconConfig, clock: TimeSource = .system, logger: Logger,
        progress: ((String, Int) -> Void)? = nil
    ) async throws -> Outcome {
        let trust = try config.trustStore()
        for path in request.notifications {
            // A missing file fails before anything is written.
            try ChunkedFile(path: path).close()
        }
        var plain = request
        plain.notifications = []
        var summaries: [ImportFileSummary] = []
        if !plain.isEmpty {
            let store = try ReconStore(path: config.databasePath, clock: clock)
            summaries += try Importer(progress: progress).run(plain, into: store)
        }
        if !request.notifications.isEmpty {
            let store = try ReconStore(path: config.databasePath, clock: clock)
            summaries += try await importNotifications(request.notifications, store: store, config: config, trust: trust)
        }
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

    /// Imports notification files, verified against the configured roots and bundle ids.
    static func importNotifications(
        _ paths: [String], store: ReconStore, config: ReconConfig, trust: TrustStore
    ) async throws -> [ImportFileSummary] {
        let importer = NotificationImporter(check: NotificationCheck(trust: trust, bundleIDs: Set(config.bundleIDs)))
        var summaries: [ImportFileSummary] = []
        for path in paths {
            summaries.append(try await importer.importFile(path, into: store))
        }
        return summaries
    }
}
