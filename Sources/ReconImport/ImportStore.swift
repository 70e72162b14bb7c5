import ReconStorage

/// What the import writes of the store.
///
/// The ledger, receipts, catalog and entitlements; notifications; Apple's reports and payments. It reads nothing
/// else.
package protocol ImportStore {
    var ledgerImport: any LedgerImportRepository { get }
    var notifications: any NotificationRepository { get }
    var appleReports: any AppleReportRepository { get }
    var appleWord: any AppleWordRepository { get }
}

extension ReconStore: ImportStore {}
