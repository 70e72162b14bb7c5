import AppleData
import ReconModel

/// The tables of subscriptions (CONTRACT §1.8, §3): what the backend grants, and what Apple says of each.
extension Schema {
    /// One row per user and original transaction id (a re-import updates it); Apple's Get All Subscription Statuses
    /// answer per original transaction id and environment, the latest one, with when the store learned it (the
    /// as-of of the run that asked).
    package static let entitlements = """
        CREATE TABLE entitlements (
            user_id TEXT NOT NULL,
            original_transaction_id TEXT NOT NULL,
            product_id TEXT NOT NULL,
            expires_at INTEGER NOT NULL,
            environment TEXT NOT NULL,
            updated_at INTEGER,
            source_file TEXT NOT NULL,
            source_line INTEGER NOT NULL,
            imported_at INTEGER NOT NULL,
            PRIMARY KEY (user_id, original_transaction_id)
        ) WITHOUT ROWID;
        CREATE INDEX entitlements_by_original ON entitlements(original_transaction_id);

        CREATE TABLE subscription_statuses (
            original_transaction_id TEXT NOT NULL,
            environment TEXT NOT NULL,
            status INTEGER NOT NULL,
            product_id TEXT,
            expires_date INTEGER,
            grace_period_expires_date INTEGER,
            auto_renew_status INTEGER,
            revocation_date INTEGER,
            price_milli INTEGER,
            currency TEXT,
            learned_at INTEGER NOT NULL,
            PRIMARY KEY (original_transaction_id, environment)
        ) WITHOUT ROWID;
        """
}
