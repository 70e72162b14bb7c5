import ReconStorage

/// What the reports read of the store; they never write it.
///
/// The ledger's counts, rejected and pending rows, this run's findings with their history, and whether Apple's
/// reports are in the store, and this report's counted sales.
package protocol ReportStore {
    var ledger: any LedgerRepository { get }
    var findings: any FindingRepository { get }
    var appleReports: any AppleReportRepository { get }
    /// The counted sales of this report, for `revenue_schedule.csv`.
    var revenue: any RevenueRepository { get }
    /// Opens another read-only connection to the same store, for reading committed rows on another thread while this
    /// one reads too; nil when the store has no such second reader (``ReconStore/sqliteReader``).
    var concurrentReader: (@Sendable () throws -> any ReportStore)? { get }
}

extension ReconStore: ReportStore {
    package var concurrentReader: (@Sendable () throws -> any ReportStore)? {
        guard let open = sqliteReader else { return nil }
        return { () throws -> any ReportStore in try open() }
    }
}
