/// The store's repositories, one per concern, over its one connection: each written once in the SQL both engines run,
/// over ``StoreDatabase`` (an SQLite file or a PostgreSQL database).
///
/// A stage is given the repositories it reads and writes, not the store: the compiler then shows what each stage
/// can touch.
extension ReconStore {
    /// The ledger as the import writes it: transactions, receipts' rows, the catalog, rejected rows.
    package var ledgerImport: any LedgerImportRepository { SQLLedgerImport(store: self) }
    /// The ledger as detection and the reports read it: transaction groups, pending rows, counts, the catalog.
    package var ledger: any LedgerRepository { SQLLedger(store: self) }
    /// Receipts, their decoding, verifications and the evidence they revealed.
    package var receipts: any ReceiptRepository { SQLReceipts(store: self) }
    /// App Store Server Notifications and the history sweeps that fetched them.
    package var notifications: any NotificationRepository { SQLNotifications(store: self) }
    /// Apple's Sales Reports, Financial Reports and payments.
    package var appleReports: any AppleReportRepository { SQLAppleReports(store: self) }
    /// The backend's entitlements and Apple's subscription statuses.
    package var entitlements: any EntitlementRepository { SQLEntitlements(store: self) }
    /// This run's findings and their history across runs.
    package var findings: any FindingRepository { SQLFindings(store: self) }
    /// Revenue as the last report showed it, and what an incremental report builds on.
    package var revenue: any RevenueRepository { SQLRevenue(store: self) }
    /// What support's lookup reads of one user or transaction.
    package var lookup: any LookupRepository { SQLLookup(store: self) }
}

/// The ledger as the import writes it: transactions, receipts' rows, the catalog, rejected rows, in the SQL both engines run.
public struct SQLLedgerImport: StoreTables {
    package let store: ReconStore
}

/// The ledger as detection and the reports read it: transaction groups, pending rows, counts, the catalog, in the SQL both engines run.
public struct SQLLedger: StoreTables {
    package let store: ReconStore
}

/// Receipts, their decoding, verifications and the evidence they revealed, in the SQL both engines run.
public struct SQLReceipts: StoreTables {
    package let store: ReconStore
}

/// App Store Server Notifications and the history sweeps that fetched them, in the SQL both engines run.
public struct SQLNotifications: StoreTables {
    package let store: ReconStore
}

/// Apple's Sales Reports, Financial Reports and payments, in the SQL both engines run.
public struct SQLAppleReports: StoreTables {
    package let store: ReconStore
}

/// The backend's entitlements and Apple's subscription statuses, in the SQL both engines run.
public struct SQLEntitlements: StoreTables {
    package let store: ReconStore
}

/// This run's findings and their history across runs, in the SQL both engines run.
public struct SQLFindings: StoreTables {
    package let store: ReconStore
}

/// Revenue as the last report showed it, and what an incremental report builds on, in the SQL both engines run.
public struct SQLRevenue: StoreTables {
    package let store: ReconStore
}

/// What support's lookup reads of one user or transaction, in the SQL both engines run.
public struct SQLLookup: StoreTables {
    package let store: ReconStore
}
