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
}

extension ReconStore: ReportStore {}
