import AppleData
import Foundation
import ReconModel
import ReconStorage

/// The first stage: loads the given files into the store (CONTRACT §1), one summary per file: the
/// ledger, receipts and catalog, then the notification files, each notification verified before
/// it is kept (CONTRACT §1.4).
public struct ImportStage {
    package var store: any ImportStore
    /// Verifies App Store Server Notifications (trust store and bundle ids of the settings).
    public var notifications: NotificationImporter
    /// Called now and then with (file, rows read so far).
    public var progress: ((String, Int) -> Void)?
    /// Logs what each part of the file import cost (``PhaseTimer``), when given.
    package var timer: PhaseTimer?

    package init(store: any ImportStore, notifications: NotificationImporter, progress: ((String, Int) -> Void)? = nil)
    {
        self.store = store
        self.notifications = notifications
        self.progress = progress
    }

    /// What one import did.
    public struct Result: Sendable, Hashable {
        public var files: [ImportFileSummary]
        public var read: Int { files.reduce(0) { $0 + $1.read } }
        public var accepted: Int { files.reduce(0) { $0 + $1.accepted } }
        public var rejected: Int { files.reduce(0) { $0 + $1.rejected } }

        /// One line per file, each followed by the file's warnings (unknown columns).
        public var lines: [String] { files.flatMap { [$0.line] + ($0.warnings ?? []).map { "warning: " + $0 } } }
        /// The counts a run record keeps for this stage.
        public var counts: [String: Int] { ["read": read, "accepted": accepted, "rejected": rejected] }
    }

    /// Imports every file of `request`, then every query of `database` (CONTRACT §1.7), in `run`.
    ///
    /// - Throws: when a file or the database cannot be read or the store cannot be written.
    public func run(_ request: ImportRequest, database: LedgerDatabase? = nil, in run: RunContext) async throws
        -> Result
    {
        for path in request.notifications {
            // A missing file fails before anything is written.
            try ChunkedFile(path: path).close()
        }
        var plain = request
        plain.notifications = []
        var files: [ImportFileSummary] = []
        if !plain.isEmpty {
            var importer = Importer(progress: progress)
            importer.timer = timer
            files += try importer.run(plain, into: store)
        }
        for path in request.notifications {
            files.append(try await notifications.importFile(path, into: store, run: run))
        }
        if let database {
            let importer = DatabaseImporter(importer: Importer(progress: progress), notifications: notifications)
            files += try await importer.run(database, into: store, in: run)
        }
        return Result(files: files)
    }
}
