import ReconStorage

/// What detection reads of the store, and the two things it writes: this run's findings with their history, and
/// the revenue's kept results an incremental report builds on.
package protocol DetectionStore {
    var ledger: any LedgerRepository { get }
    var receipts: any ReceiptRepository { get }
    var appleReports: any AppleReportRepository { get }
    var entitlements: any EntitlementRepository { get }
    var findings: any FindingRepository { get }
    var revenue: any RevenueRepository { get }
    var appleWord: any AppleWordRepository { get }
}

extension ReconStore: DetectionStore {}
