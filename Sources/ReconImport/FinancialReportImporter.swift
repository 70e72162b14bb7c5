import AppleData
import ReconModel
import ReconStorage

/// Imports Apple's Financial Reports and payment summaries (CONTRACT §1.9): each file is read and
/// checked whole before anything of it is stored, then stored in one transaction.
package struct FinancialReportImporter {
    /// The input kind a Financial Report's summary line names.
    package static let financialReportKind = "financial-report"
    /// The input kind a payment summary's summary line names.
    package static let paymentsKind = "payments"

    /// Imports one Financial Report: every row is accepted (rows of other product types are counted
    /// as skipped: they are part of what Apple owes, never compared with the ledger).
    ///
    /// - Throws: ``ImportFileError`` for a file that cannot be read or does not add up (nothing of
    ///   it is stored), ``StoreError``.
    package func importFinancialReport(_ path: String, into store: any ImportStore) throws -> ImportFileSummary {
        let report = try FinancialReportParser.parse(path)
        try store.appleReports.storeFinancialReport(report, source: path)
        var summary = ImportFileSummary(
            kind: Self.financialReportKind, file: path, read: report.rows.count, accepted: report.rows.count,
            rejected: 0)
        summary.skipped = report.rows.count { !$0.isInAppPurchase }
        return summary
    }

    /// Imports one payment summary: a row per region.
    ///
    /// - Throws: ``ImportFileError`` for a file that cannot be read or does not add up (nothing of
    ///   it is stored), ``StoreError``.
    package func importPayments(_ path: String, into store: any ImportStore) throws -> ImportFileSummary {
        let summary = try PaymentSummaryParser.parse(path)
        try store.appleReports.storePaymentSummary(summary, source: path)
        return ImportFileSummary(
            kind: Self.paymentsKind, file: path, read: summary.regions.count, accepted: summary.regions.count,
            rejected: 0)
    }
}
