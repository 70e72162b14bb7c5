import ReconStorage

/// What verification reads and writes of the store: the pending rows and the catalog, the receipts and what Apple
/// said of them, notifications and their sweeps, the entitlements and subscription statuses.
package protocol VerificationStore {
    var ledger: any LedgerRepository { get }
    var receipts: any ReceiptRepository { get }
    var notifications: any NotificationRepository { get }
    var entitlements: any EntitlementRepository { get }
    var appleWord: any AppleWordRepository { get }
}

extension ReconStore: VerificationStore {}
