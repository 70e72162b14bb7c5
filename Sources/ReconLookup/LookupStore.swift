import ReconStorage

/// What support's lookup reads of the store; it never writes.
package protocol LookupStore {
    var lookup: any LookupRepository { get }
    var receipts: any ReceiptRepository { get }
    var notifications: any NotificationRepository { get }
    var entitlements: any EntitlementRepository { get }
    var appleWord: any AppleWordRepository { get }
}

extension ReconStore: LookupStore {}
