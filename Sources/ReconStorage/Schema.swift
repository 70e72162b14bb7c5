import AppleData
import ReconModel

/// The store's schema, as named migrations applied in order, each in its own transaction.
///
/// Times are epoch milliseconds (UTC); money is integer milliunits plus an ISO 4217 code.
package enum Schema {
    /// A named schema change.
    package struct Migration {
        package let name: String
        /// The migration in SQLite; PostgreSQL's statements are ``PostgresMigrations/statements(of:)``.
        package let sql: String
    }

    package static let migrations: [Migration] = [
        Migration(name: "v1-ledger", sql: ledger),
        Migration(name: "v2-evidence", sql: evidence),
        Migration(name: "v3-findings-and-runs", sql: findingsAndRuns),
        // When Apple signed each statement (JWS `signedDate`): the latest one decides refunds.
        Migration(name: "issue9-evidence-signed-date", sql: "ALTER TABLE evidence ADD COLUMN signed_date INTEGER;"),
        Migration(name: "issue10-notifications", sql: notifications),
        Migration(name: "issue11-sales-report", sql: salesReports),
        // JWS `isUpgraded`: the customer upgraded this subscription (not a customer refund).
        Migration(name: "issue10-evidence-is-upgraded", sql: "ALTER TABLE evidence ADD COLUMN is_upgraded INTEGER;"),
        // When the store learned each verification or notification, for `--as-of` as a cut-off: the as-of of the
        // run that learned it (never later than the wall clock); NULL before, read as `verified_at`.
        Migration(
            name: "issue12-verification-learned-at", sql: "ALTER TABLE verifications ADD COLUMN learned_at INTEGER;"),
        // The revenue baseline keyed by transaction id, so a report compares it in one ordered pass.
        Migration(name: "issue13-revenue-shown-by-transaction", sql: revenueShownByTransaction),
        Migration(name: "issue13-ledger-rowid-row-hash", sql: ledgerRowidAndRowHash),
        // Apple's Financial Reports and payment summaries; the catalog's per-storefront proceeds.
        Migration(name: "issue21-financial-reports", sql: financialReports),
        // A sales report row's `Developer Proceeds` (per unit, positive) in `Currency of Proceeds`, and its
        // `Parent Identifier`; NULL where the report had no such column, and for rows imported before.
        Migration(name: "issue21-sales-report-proceeds", sql: salesReportProceeds),
        // The backend's subscription access, and Apple's word on each subscription's status.
        Migration(name: "issue23-entitlements", sql: entitlements),
        // The offer each purchase was made under, and the creation date of the receipt an entry was read from.
        Migration(name: "issue23-evidence-offers-and-receipt-date", sql: evidenceOffersAndReceiptDate),
        // Evidence by subscription period, to tie the transaction ids of one purchase together.
        Migration(name: "issue23-evidence-by-web-order-line-item", sql: evidenceByWebOrderLineItem),
        // Each transaction's share of the report, kept for the next one, and the transactions changed since.
        Migration(name: "issue24-incremental-detection", sql: incrementalDetection),
        // Each transaction's events in Apple's reports, kept for the next report, and the days whose reports changed.
        Migration(name: "issue24-kept-ledger-events", sql: keptLedgerEvents),
        // The latest recording of the findings history, so a report writes only the findings that changed.
        Migration(name: "issue24-findings-recorded", sql: findingsRecorded),
        // Each line's revenue parts side by side, so adding up a changed line reads its parts in one range.
        Migration(name: "issue24-revenue-parts-by-line", sql: revenuePartsByLine),
        // The catalog's service period (CONTRACT §1.3 `duration`), for revenue recognition (§5.1).
        Migration(name: "issue35-catalog-duration", sql: "ALTER TABLE products ADD COLUMN duration TEXT;"),
        // The deferred revenue roll-forward the latest report showed, so a restated month is listed.
        Migration(name: "issue35-deferred-revenue-shown", sql: deferredRevenueShown),
        // Each counted sale and every sale's life by month, kept for the next report (a night redoes only its own).
        Migration(name: "issue35-recognition-kept", sql: recognitionKept),
        // The revenue schedule the latest report wrote (where, as of when, its size and checksum), so a night patches it.
        Migration(name: "issue35-revenue-schedule-written", sql: revenueScheduleWritten),
        // The original transaction id in the key of every table kept per transaction, so each can be distributed by
        // it (docs/store.md, "The store on Citus").
        Migration(
            name: "issue34-distribution-keys", sql: distributionKeys),
        // Apple's word as of 2026: tokens, app transactions, commitments, consents, consumption answers (§7).
        Migration(name: "issue45-apple-word-2026", sql: appleWord2026),
    ]

    private static let ledger = """
        CREATE TABLE import_files (
            file_id INTEGER PRIMARY KEY,
            path TEXT NOT NULL UNIQUE
        );

        CREATE TABLE transactions (
            record_id TEXT PRIMARY KEY NOT NULL,
            user_id TEXT NOT NULL,
            product_id TEXT NOT NULL,
            transaction_id TEXT NOT NULL,
            original_transaction_id TEXT NOT NULL,
            purchase_date INTEGER NOT NULL,
            quantity INTEGER NOT NULL,
            environment TEXT NOT NULL,
            price_milli INTEGER,
            currency TEXT,
            storefront TEXT,
            verification_status TEXT NOT NULL,
            delivered_at INTEGER,
            finished_at INTEGER,
            receipt_id TEXT,
            source_file_id INTEGER NOT NULL REFERENCES import_files(file_id),
            source_line INTEGER NOT NULL,
            imported_at INTEGER NOT NULL,
            recon_verdict TEXT,
            recon_verification_id INTEGER
        ) WITHOUT ROWID;
        \(v1TransactionIndexes.map(\.sql).joined(separator: ";\n"));

        CREATE TABLE receipts (
            receipt_id TEXT PRIMARY KEY NOT NULL,
            user_id TEXT,
            received_at INTEGER,
            format TEXT NOT NULL,
            data TEXT NOT NULL,
            claimed_environment TEXT,
            source_file TEXT NOT NULL,
            source_line INTEGER NOT NULL,
            imported_at INTEGER NOT NULL
        );
        CREATE INDEX receipts_by_user ON receipts(user_id);

        CREATE TABLE products (
            product_id TEXT NOT NULL,
            storefront TEXT NOT NULL DEFAULT '',
            type TEXT NOT NULL,
            price_milli INTEGER,
            currency TEXT,
            proceeds_rate_ppm INTEGER NOT NULL,
            source_file TEXT NOT NULL,
            source_line INTEGER NOT NULL,
            imported_at INTEGER NOT NULL,
            PRIMARY KEY (product_id, storefront)
        ) WITHOUT ROWID;

        CREATE TABLE rejected_rows (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            source_file TEXT NOT NULL,
            line INTEGER NOT NULL,
            record_id TEXT,
            reason TEXT NOT NULL,
            raw TEXT NOT NULL,
            rejected_at INTEGER NOT NULL,
            UNIQUE (source_file, line, raw)
        );
        """

    private static let evidence = """
        CREATE TABLE receipt_checks (
            receipt_id TEXT PRIMARY KEY NOT NULL REFERENCES receipts(receipt_id),
            status TEXT NOT NULL,
            reason TEXT,
            environment TEXT,
            receipt_type TEXT,
            bundle_id TEXT,
            app_version TEXT,
            original_app_version TEXT,
            creation_date INTEGER,
            signature TEXT NOT NULL,
            signature_detail TEXT,
            data_sha256 TEXT NOT NULL,
            checked_at INTEGER NOT NULL
        );

        CREATE TABLE verifications (
            id INTEGER PRIMARY KEY,
            record_id TEXT,
            receipt_id TEXT,
            transaction_id TEXT,
            source TEXT NOT NULL,
            endpoint TEXT,
            http_status INTEGER,
            apple_status INTEGER,
            environment TEXT,
            bundle_id TEXT,
            outcome TEXT NOT NULL,
            detail TEXT,
            attempts INTEGER NOT NULL DEFAULT 1,
            verified_at INTEGER NOT NULL,
            run_id INTEGER
        );
        CREATE INDEX verifications_by_record ON verifications(record_id);
        CREATE INDEX verifications_by_receipt ON verifications(receipt_id);
        CREATE INDEX verifications_by_transaction ON verifications(transaction_id);

        CREATE TABLE evidence (
            id INTEGER PRIMARY KEY,
            source TEXT NOT NULL,
            receipt_id TEXT,
            verification_id INTEGER REFERENCES verifications(id),
            transaction_id TEXT NOT NULL,
            original_transaction_id TEXT,
            product_id TEXT,
            quantity INTEGER,
            purchase_date INTEGER,
            original_purchase_date INTEGER,
            expires_date INTEGER,
            cancellation_date INTEGER,
            cancellation_reason TEXT,
            revocation_type TEXT,
            revocation_percentage INTEGER,
            web_order_line_item_id TEXT,
            price_milli INTEGER,
            currency TEXT,
            storefront TEXT,
            product_type TEXT,
            entry_environment TEXT,
            entry_bundle_id TEXT,
            app_account_token TEXT,
            in_app_ownership_type TEXT,
            environment TEXT,
            bundle_id TEXT,
            signature TEXT NOT NULL,
            apple_status INTEGER,
            recorded_at INTEGER NOT NULL
        );
        CREATE INDEX evidence_by_transaction ON evidence(transaction_id, recorded_at);
        CREATE INDEX evidence_by_original ON evidence(original_transaction_id);
        CREATE INDEX evidence_by_receipt ON evidence(receipt_id);
        """

    private static let findingsAndRuns = """
        CREATE TABLE runs (
            run_id INTEGER PRIMARY KEY,
            command TEXT NOT NULL,
            started_at INTEGER NOT NULL,
            finished_at INTEGER,
            as_of INTEGER NOT NULL,
            exit_code INTEGER,
            summary_json TEXT
        );

        CREATE TABLE findings (
            fingerprint TEXT PRIMARY KEY NOT NULL,
            code TEXT NOT NULL,
            severity TEXT NOT NULL,
            transaction_id TEXT NOT NULL,
            original_transaction_id TEXT,
            user_ids TEXT NOT NULL,
            product_id TEXT,
            environment TEXT,
            amount_milli INTEGER,
            currency TEXT,
            detail TEXT NOT NULL,
            record_ids TEXT NOT NULL,
            receipt_id TEXT,
            first_seen_run INTEGER NOT NULL,
            first_seen_at INTEGER NOT NULL,
            last_seen_run INTEGER NOT NULL,
            last_seen_at INTEGER NOT NULL,
            resolved_run INTEGER,
            resolved_at INTEGER
        ) WITHOUT ROWID;
        CREATE INDEX findings_by_transaction ON findings(transaction_id);
        CREATE INDEX findings_by_original ON findings(original_transaction_id);

        CREATE TABLE finding_users (
            fingerprint TEXT NOT NULL,
            user_id TEXT NOT NULL,
            PRIMARY KEY (user_id, fingerprint)
        ) WITHOUT ROWID;

        CREATE TABLE run_lock (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            holder TEXT NOT NULL,
            pid INTEGER NOT NULL,
            acquired_at INTEGER NOT NULL
        );
        """

    /// App Store Server Notifications V2 (imported from the webhook's files or swept from Get
    /// Notification History), the sweep windows, and what each report showed per day.
    private static let notifications = """
        CREATE TABLE notifications (
            notification_uuid TEXT PRIMARY KEY NOT NULL,
            notification_type TEXT NOT NULL,
            subtype TEXT,
            signed_date INTEGER NOT NULL,
            environment TEXT,
            bundle_id TEXT,
            transaction_id TEXT,
            original_transaction_id TEXT,
            product_id TEXT,
            revocation_date INTEGER,
            revocation_type TEXT,
            verification_id INTEGER,
            source TEXT NOT NULL,
            source_file TEXT,
            source_line INTEGER,
            received_at INTEGER,
            signed_payload TEXT NOT NULL,
            recorded_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX notifications_by_transaction ON notifications(transaction_id);
        CREATE INDEX notifications_by_original ON notifications(original_transaction_id);

        CREATE TABLE notification_sweeps (
            id INTEGER PRIMARY KEY,
            environment TEXT NOT NULL,
            start_date INTEGER NOT NULL,
            end_date INTEGER NOT NULL,
            pagination_token TEXT,
            pages INTEGER NOT NULL DEFAULT 0,
            notifications INTEGER NOT NULL DEFAULT 0,
            started_at INTEGER NOT NULL,
            completed_at INTEGER
        );
        CREATE INDEX notification_sweeps_by_environment ON notification_sweeps(environment, completed_at);

        CREATE TABLE revenue_shown (
            run_id INTEGER NOT NULL,
            date TEXT NOT NULL,
            product_id TEXT NOT NULL,
            currency TEXT NOT NULL,
            transaction_id TEXT NOT NULL,
            gross_milli INTEGER NOT NULL,
            refunds_milli INTEGER NOT NULL,
            PRIMARY KEY (run_id, date, product_id, currency, transaction_id)
        ) WITHOUT ROWID;
        """

    /// What the latest report showed, per transaction and revenue line, in transaction id order (the order detection
    /// reads the store in), and the lines it showed.
    ///
    /// Carries over the baseline of `revenue_shown` (kept by day first).
    private static let revenueShownByTransaction = """
        CREATE TABLE revenue_shown_by_transaction (
            transaction_id TEXT NOT NULL,
            date TEXT NOT NULL,
            product_id TEXT NOT NULL,
            currency TEXT NOT NULL,
            gross_milli INTEGER NOT NULL,
            refunds_milli INTEGER NOT NULL,
            PRIMARY KEY (transaction_id, date, product_id, currency)
        ) WITHOUT ROWID;
        INSERT INTO revenue_shown_by_transaction
            SELECT transaction_id, date, product_id, currency, gross_milli, refunds_milli FROM revenue_shown
            WHERE run_id = (SELECT MAX(run_id) FROM revenue_shown);
        CREATE TABLE revenue_shown_lines (
            date TEXT NOT NULL,
            product_id TEXT NOT NULL,
            currency TEXT NOT NULL,
            PRIMARY KEY (date, product_id, currency)
        ) WITHOUT ROWID;
        INSERT INTO revenue_shown_lines SELECT DISTINCT date, product_id, currency FROM revenue_shown_by_transaction;
        DROP TABLE revenue_shown;
        """

    /// Apple Summary Sales Reports: the days each imported report covers (a re-import of a day
    /// replaces it), the in-app purchase rows, and the subject of findings about no single
    /// transaction (a sales report key).
    private static let salesReports = """
        CREATE TABLE sales_report_days (
            day INTEGER PRIMARY KEY NOT NULL,
            source_file TEXT NOT NULL,
            imported_at INTEGER NOT NULL
        );

        CREATE TABLE sales_report_rows (
            id INTEGER PRIMARY KEY,
            day INTEGER NOT NULL REFERENCES sales_report_days(day),
            product_id TEXT NOT NULL,
            product_type TEXT NOT NULL,
            country_code TEXT NOT NULL,
            storefront TEXT NOT NULL,
            currency TEXT NOT NULL,
            units INTEGER NOT NULL,
            customer_price_milli INTEGER NOT NULL,
            source_file TEXT NOT NULL,
            source_line INTEGER NOT NULL
        );
        CREATE INDEX sales_report_rows_by_day ON sales_report_rows(day);

        ALTER TABLE findings ADD COLUMN subject TEXT;
        """

    /// Columns an older report may lack, so nullable (CONTRACT §1.5).
    private static let salesReportProceeds = """
        ALTER TABLE sales_report_rows ADD COLUMN proceeds_milli INTEGER;
        ALTER TABLE sales_report_rows ADD COLUMN proceeds_currency TEXT;
        ALTER TABLE sales_report_rows ADD COLUMN parent_identifier TEXT;
        """

    /// The ledger as a rowid table with a unique `record_id` index instead of clustered by `record_id`: a first load
    /// appends rows in file order and builds its indexes once by sorting, where random (UUID) record ids made every
    /// insert land on a random page of the table.
    ///
    /// Each row keeps a hash of its source text (`row_hash`), so a re-import skips rows it would rewrite unchanged.
    private static let ledgerRowidAndRowHash = """
        CREATE TABLE transactions_next (
            record_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            product_id TEXT NOT NULL,
            transaction_id TEXT NOT NULL,
            original_transaction_id TEXT NOT NULL,
            purchase_date INTEGER NOT NULL,
            quantity INTEGER NOT NULL,
            environment TEXT NOT NULL,
            price_milli INTEGER,
            currency TEXT,
            storefront TEXT,
            verification_status TEXT NOT NULL,
            delivered_at INTEGER,
            finished_at INTEGER,
            receipt_id TEXT,
            source_file_id INTEGER NOT NULL REFERENCES import_files(file_id),
            source_line INTEGER NOT NULL,
            imported_at INTEGER NOT NULL,
            recon_verdict TEXT,
            recon_verification_id INTEGER,
            row_hash INTEGER
        );
        INSERT INTO transactions_next (record_id, user_id, product_id, transaction_id, original_transaction_id,
            purchase_date, quantity, environment, price_milli, currency, storefront, verification_status,
            delivered_at, finished_at, receipt_id, source_file_id, source_line, imported_at, recon_verdict,
            recon_verification_id)
        SELECT record_id, user_id, product_id, transaction_id, original_transaction_id,
            purchase_date, quantity, environment, price_milli, currency, storefront, verification_status,
            delivered_at, finished_at, receipt_id, source_file_id, source_line, imported_at, recon_verdict,
            recon_verification_id
        FROM transactions ORDER BY source_file_id, source_line;
        DROP TABLE transactions;
        ALTER TABLE transactions_next RENAME TO transactions;
        \(transactionIndexes.map(\.sql).joined(separator: ";\n"));
        """
}
