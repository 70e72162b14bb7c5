import AppleData
import Foundation
import PostgresNIO
import ReconModel
import ReconStorage

/// Imports the rows of every query of an open ``LedgerDatabase`` into the store, one summary per
/// query, by the same validation and upsert path as files (CONTRACT §1.7).
///
/// Rows stream: each batch is judged as it is fetched and the store writes the judged chunks on
/// its own thread, a bounded queue between them, so memory stays flat whatever the result's
/// size. A failure mid-stream leaves whole committed batches; the upsert by id makes a rerun
/// complete the import with nothing counted twice.
package struct DatabaseImporter {
    package var importer: Importer
    package var notifications: NotificationImporter

    /// Reads every query, in order (catalog, receipts, ledger, notifications).
    ///
    /// - Throws: ``DatabaseSourceError`` when a query fails or the connection is lost,
    ///   ``StoreError``.
    package func run(_ database: LedgerDatabase, into store: any ImportStore, in run: RunContext) async throws
        -> [ImportFileSummary]
    {
        var summaries: [ImportFileSummary] = []
        try store.ledgerImport.beginImport()
        defer { store.ledgerImport.endImport() }
        for (index, query) in database.source.queries.enumerated() {
            let source = database.source.sourceName(query.kind)
            switch query.kind {
            case .notifications:
                summaries.append(
                    try await importNotifications(database, query: index, source: source, into: store, run: run))
            case .transactions where try store.ledgerImport.ledgerIsEmpty():
                // A first load into an empty ledger is one transaction (as for files): a failure
                // leaves the empty ledger, and a rerun loads again.
                try store.ledgerImport.beginBulkLoad()
                defer { store.ledgerImport.endBulkLoad() }
                do {
                    summaries.append(
                        try await importRows(database, query: index, source: source, into: store, bulk: true))
                    try store.ledgerImport.finishBulkLoad()
                } catch {
                    store.ledgerImport.abortBulkLoad()
                    throw error
                }
            default:
                summaries.append(try await importRows(database, query: index, source: source, into: store, bulk: false))
            }
        }
        return summaries
    }

    /// Imports one query's ledger, receipt or catalog rows.
    ///
    /// This task fetches the rows and judges them into chunks; the store writes them on a thread
    /// of its own (``ChunkWriterThread``), a bounded queue between the two, as a file's parser
    /// and writer run.
    private func importRows(
        _ database: LedgerDatabase, query index: Int, source: String, into store: any ImportStore, bulk: Bool
    ) async throws -> ImportFileSummary {
        let kind = database.source.queries[index].kind
        let writer = ChunkWriterThread(
            try ChunkWriter(source: source, kind: kind, store: store, bulk: bulk, importer: importer))
        let sink = ChunkSink(size: Importer.parseBatchSize) { chunk in try writer.send(chunk) }
        var reader = QueryRowReader(kind: kind, source: source)
        writer.start()
        let produced: (any Error)?
        do {
            try await database.forEachBatch(ofQuery: index) { rows in
                for row in rows { try reader.read(row, into: sink) }
            }
            try sink.flush()
            produced = nil
        } catch {
            produced = error
        }
        switch await writer.finish(failed: produced != nil) {
        case .success(let summary):
            if let produced { throw produced }
            return summary
        case .failure(let error):
            // The writer's own failure stopped the producer (its send was refused).
            if let produced, produced is CancellationError == false { throw produced }
            throw error
        }
    }

    /// Imports one query's notifications: each row becomes the JSON object a webhook's file
    /// line holds (`signedPayload`, `received_at`), verified and kept as a file's line is.
    private func importNotifications(
        _ database: LedgerDatabase, query index: Int, source: String, into store: any ImportStore, run: RunContext
    ) async throws -> ImportFileSummary {
        try store.notifications.clearNotificationRejections(file: source)
        var summary = ImportFileSummary(
            kind: InputKind.notifications.rawValue, file: source, read: 0, accepted: 0, rejected: 0)
        try await database.forEachRow(ofQuery: index) { row in
            summary.read += 1
            var object: [String: String] = [:]
            var rejection: RowRejection?
            for cell in row {
                do throws(RowRejection) {
                    if let text = try PostgresCellText.text(cell) { object[cell.columnName] = text }
                } catch {
                    if rejection == nil { rejection = error }
                }
            }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            let line = JSONLLine(line: summary.read, text: String(decoding: data, as: UTF8.self))
            if let rejection {
                try store.notifications.rejectNotification(
                    RejectedRow(
                        kind: .notifications, source: source, line: line.line, recordID: nil,
                        reason: rejection.reason, raw: line.text))
                summary.rejected += 1
            } else if try await notifications.importLine(line, source: source, into: store, run: run) {
                summary.accepted += 1
            } else {
                summary.rejected += 1
            }
        }
        return summary
    }
}
