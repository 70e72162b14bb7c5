import AppleData
import ReconModel
import ReconStorage

/// Imports Apple Summary Sales Reports into the store, one file in one transaction.
///
/// Every row is counted: an in-app purchase row is accepted and stored, a row of another
/// product type is accepted and skipped (counted in ``ImportFileSummary/skipped``), a malformed
/// row is rejected with its line and reason. `read == accepted + rejected` holds.
package struct SalesReportImporter {
    /// Imports one report file.
    ///
    /// - Throws: ``ImportFileError`` for a file that cannot be read or is not a sales report
    ///   (nothing of it is stored then), ``StoreError``.
    package func importFile(_ path: String, into store: any ImportStore) throws -> ImportFileSummary {
        var summary = ImportFileSummary(
            kind: InputKind.salesReports.rawValue, file: path, read: 0, accepted: 0, rejected: 0)
        try store.ledgerImport.beginBatch()
        do {
            let writer = try store.appleReports.salesReportWriter(source: path)
            try SalesReportParser.parse(path) { outcome in
                summary.read += 1
                switch outcome {
                case .sale(let row):
                    try writer.insert(row)
                    summary.accepted += 1
                case .skipped(let day):
                    try writer.cover(day)
                    summary.accepted += 1
                    summary.skipped += 1
                case .rejected(let rejection):
                    try writer.reject(rejection)
                    summary.rejected += 1
                }
            }
            try store.ledgerImport.commitBatch()
        } catch {
            store.ledgerImport.rollbackBatch()
            throw error
        }
        return summary
    }
}
