import AppleData
import ReconModel

/// The tables of Apple's word as of 2026 (App Store Server API 1.21, Notifications V2 2.21; CONTRACT §7): the
/// notifications that carry no transaction, the app transaction id of the evidence, the 12-month commitments of monthly
/// billing plans, the customers' consents and the answers to Apple's consumption requests.
extension Schema {
    /// A notification's external purchase token (`EXTERNAL_PURCHASE_TOKEN`), app transaction id, the reason of a
    /// consumption request, and when the store learned it (the as-of of the run that kept it; NULL before: read as
    /// `recorded_at`).
    ///
    /// `app_transaction_links`: every transaction Apple's evidence showed with an `appTransactionId` (one per Apple
    /// Account and app), so the lookup of one finds every app account it links.
    ///
    /// `commitment_periods`: each statement of a monthly charge's `commitmentInfo` (several per transaction: the
    /// purchase, then its refund), with the verification that brought it; `renewal_commitments`: each renewal info's
    /// `commitmentInfo`, by when Apple signed it.
    ///
    /// `consents` (CONTRACT §1.10): one row per user, re-imports update it. `consumption_answers`: what was sent for a
    /// consumption request (`notification_uuid`), and when Apple accepted it; `sent_at` is written before the request
    /// leaves, so a request is never sent twice.
    package static let appleWord2026 = """
        ALTER TABLE notifications ADD COLUMN external_purchase_id TEXT;
        ALTER TABLE notifications ADD COLUMN app_transaction_id TEXT;
        ALTER TABLE notifications ADD COLUMN consumption_request_reason TEXT;
        ALTER TABLE notifications ADD COLUMN learned_at INTEGER;
        ALTER TABLE products ADD COLUMN sample_content INTEGER;
        CREATE INDEX notifications_by_type ON notifications(notification_type, signed_date);
        CREATE INDEX notifications_by_app_transaction ON notifications(app_transaction_id);

        CREATE TABLE app_transaction_links (
            app_transaction_id TEXT NOT NULL,
            transaction_id TEXT NOT NULL,
            original_transaction_id TEXT NOT NULL,
            signed_date INTEGER,
            PRIMARY KEY (app_transaction_id, transaction_id)
        ) WITHOUT ROWID;
        CREATE INDEX app_transaction_links_by_transaction ON app_transaction_links(transaction_id);
        CREATE INDEX app_transaction_links_by_original ON app_transaction_links(original_transaction_id);

        CREATE TABLE commitment_periods (
            id INTEGER PRIMARY KEY,
            original_transaction_id TEXT NOT NULL,
            transaction_id TEXT NOT NULL,
            product_id TEXT,
            environment TEXT,
            billing_plan_type TEXT,
            billing_period_number INTEGER,
            total_billing_periods INTEGER,
            commitment_price_milli INTEGER,
            commitment_expires_date INTEGER,
            purchase_date INTEGER,
            expires_date INTEGER,
            price_milli INTEGER,
            currency TEXT,
            revocation_date INTEGER,
            revocation_type TEXT,
            revocation_percentage INTEGER,
            signed_date INTEGER,
            verification_id INTEGER,
            recorded_at INTEGER NOT NULL
        );
        CREATE INDEX commitment_periods_by_original ON commitment_periods(original_transaction_id, transaction_id);

        CREATE TABLE renewal_commitments (
            original_transaction_id TEXT NOT NULL,
            environment TEXT NOT NULL,
            signed_date INTEGER NOT NULL,
            auto_renew_status INTEGER,
            commitment_auto_renew_status INTEGER,
            is_in_billing_retry_period INTEGER,
            learned_at INTEGER NOT NULL,
            PRIMARY KEY (original_transaction_id, environment, signed_date)
        ) WITHOUT ROWID;

        CREATE TABLE consents (
            user_id TEXT PRIMARY KEY NOT NULL,
            consented_at INTEGER NOT NULL,
            withdrawn_at INTEGER,
            source_file TEXT NOT NULL,
            source_line INTEGER NOT NULL,
            imported_at INTEGER NOT NULL
        ) WITHOUT ROWID;

        CREATE TABLE consumption_answers (
            notification_uuid TEXT PRIMARY KEY NOT NULL,
            transaction_id TEXT NOT NULL,
            environment TEXT,
            body TEXT NOT NULL,
            sent_at INTEGER NOT NULL,
            answered_at INTEGER,
            http_status INTEGER,
            failure TEXT
        ) WITHOUT ROWID;
        """
}
