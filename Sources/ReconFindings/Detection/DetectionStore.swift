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
    /// Opens the ledger again on a read-only connection of its own, to be read on another thread while this
    /// connection writes; nil when the store has no such second reader (``ReconStore/sqliteReader``).
    var concurrentLedger: (@Sendable () throws -> any LedgerRepository)? { get }
}

extension ReconStore: DetectionStore {
    package var concurrentLedger: (@Sendable () throws -> any LedgerRepository)? {
        guard let open = sqliteReader else { return nil }
        return { () throws -> any LedgerRepository in try open().ledger }
    }
}
