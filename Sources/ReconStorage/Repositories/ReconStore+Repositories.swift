/// The store's repositories, one per concern, over its one connection.
///
/// A stage is given the repositories it reads and writes, not the store: the compiler then shows what each stage
/// can touch.
extension ReconStore {
    /// The ledger as the import writes it: transactions, receipts' rows, the catalog, rejected rows.
    package var ledgerImport: any LedgerImportRepository { SQLiteLedgerImport(store: self) }
    /// The ledger as detection and the reports read it: transaction groups, pending rows, counts, the catalog.
    package var ledger: any LedgerRepository { SQLiteLedger(store: self) }
    /// Receipts, their decoding, verifications and the evidence they revealed.
    package var receipts: any ReceiptRepository { SQLiteReceipts(store: self) }
    /// App Store Server Notifications and the history sweeps that fetched them.
    package var notifications: any NotificationRepository { SQLiteNotifications(store: self) }
    /// Apple's Sales Reports, Financial Reports and payments.
    package var appleReports: any AppleReportRepository { SQLiteAppleReports(store: self) }
    /// The backend's entitlements and Apple's subscription statuses.
    package var entitlements: any EntitlementRepository { SQLiteEntitlements(store: self) }
    /// This run's findings and their history across runs.
    package var findings: any FindingRepository { SQLiteFindings(store: self) }
    /// Revenue as the last report showed it, and what an incremental report builds on.
    package var revenue: any RevenueRepository { SQLiteRevenue(store: self) }
    /// What support's lookup reads of one user or transaction.
    package var lookup: any LookupRepository { SQLiteLookup(store: self) }
}

/// The ledger as the import writes it: transactions, receipts' rows, the catalog, rejected rows, in SQLite.
public struct SQLiteLedgerImport: StoreTables {
    package let store: ReconStore
}

/// The ledger as detection and the reports read it: transaction groups, pending rows, counts, the catalog, in SQLite.
public struct SQLiteLedger: StoreTables {
    package let store: ReconStore
}

/// Receipts, their decoding, verifications and the evidence they revealed, in SQLite.
public struct SQLiteReceipts: StoreTables {
    package let store: ReconStore
}

/// App Store Server Notifications and the history sweeps that fetched them, in SQLite.
public struct SQLiteNotifications: StoreTables {
    package let store: ReconStore
}

/// Apple's Sales Reports, Financial Reports and payments, in SQLite.
public struct SQLiteAppleReports: StoreTables {
    package let store: ReconStore
}

/// The backend's entitlements and Apple's subscription statuses, in SQLite.
public struct SQLiteEntitlements: StoreTables {
    package let store: ReconStore
}

/// This run's findings and their history across runs, in SQLite.
public struct SQLiteFindings: StoreTables {
    package let store: ReconStore
}

/// Revenue as the last report showed it, and what an incremental report builds on, in SQLite.
public struct SQLiteRevenue: StoreTables {
    package let store: ReconStore
}

/// What support's lookup reads of one user or transaction, in SQLite.
public struct SQLiteLookup: StoreTables {
    package let store: ReconStore
}
