/// The store's migrations as PostgreSQL runs them, each statement under its migration's name (part 5 of 6;
/// ``PostgresMigrations``).
extension PostgresMigrations {
    static let part5: [(migration: String, statements: [String])] = [
        (
            "issue34-distribution-keys",
            [
                #"""
                DROP TABLE original_findings
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                ALTER TABLE original_findings_distributed RENAME TO original_findings
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                CREATE TABLE revenue_parts_distributed (
                original_transaction_id TEXT COLLATE "C" NOT NULL,
                transaction_id TEXT COLLATE "C" NOT NULL,
                seq BIGINT NOT NULL,
                day BIGINT NOT NULL,
                product_id TEXT COLLATE "C" NOT NULL,
                currency TEXT COLLATE "C" NOT NULL,
                units BIGINT NOT NULL,
                gross_milli BIGINT NOT NULL,
                refunds_milli BIGINT NOT NULL,
                rate_ppm BIGINT NOT NULL,
                net_milli BIGINT NOT NULL,
                stated_milli BIGINT,
                stated_currency TEXT COLLATE "C",
                stated_source TEXT COLLATE "C",
                PRIMARY KEY (day, product_id, currency, transaction_id, seq, original_transaction_id)
                )
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                INSERT INTO revenue_parts_distributed SELECT COALESCE(
                    (SELECT MIN(t.original_transaction_id) FROM transactions t WHERE t.transaction_id =
                        x.transaction_id),
                    (SELECT MIN(e.original_transaction_id) FROM evidence e WHERE e.transaction_id =
                        x.transaction_id),
                    x.transaction_id), x.* FROM revenue_parts x
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                DROP TABLE revenue_parts
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                ALTER TABLE revenue_parts_distributed RENAME TO revenue_parts
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                CREATE TABLE ledger_events_distributed (
                original_transaction_id TEXT COLLATE "C" NOT NULL,
                transaction_id TEXT COLLATE "C" NOT NULL,
                seq BIGINT NOT NULL,
                day BIGINT NOT NULL,
                record_id TEXT COLLATE "C" NOT NULL,
                user_id TEXT COLLATE "C" NOT NULL,
                product_id TEXT COLLATE "C" NOT NULL,
                storefront TEXT COLLATE "C" NOT NULL,
                currency TEXT COLLATE "C" NOT NULL,
                units BIGINT NOT NULL,
                amount_milli BIGINT NOT NULL,
                proceeds_milli BIGINT,
                proceeds_currency TEXT COLLATE "C",
                rate_ppm BIGINT NOT NULL,
                PRIMARY KEY (transaction_id, seq, original_transaction_id)
                )
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                INSERT INTO ledger_events_distributed SELECT COALESCE(
                    (SELECT MIN(t.original_transaction_id) FROM transactions t WHERE t.transaction_id =
                        x.transaction_id),
                    (SELECT MIN(e.original_transaction_id) FROM evidence e WHERE e.transaction_id =
                        x.transaction_id),
                    x.transaction_id), x.* FROM ledger_events x
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                DROP TABLE ledger_events
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                ALTER TABLE ledger_events_distributed RENAME TO ledger_events
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                CREATE TABLE recognition_sales_distributed (
                transaction_id TEXT COLLATE "C" NOT NULL,
                original_transaction_id TEXT COLLATE "C" NOT NULL,
                user_id TEXT COLLATE "C" NOT NULL,
                product_id TEXT COLLATE "C" NOT NULL,
                currency TEXT COLLATE "C" NOT NULL,
                amount_milli BIGINT NOT NULL,
                start_at BIGINT NOT NULL,
                end_at BIGINT,
                period_source TEXT COLLATE "C" NOT NULL,
                refunds TEXT COLLATE "C" NOT NULL,
                last_change BIGINT NOT NULL,
                PRIMARY KEY (transaction_id, original_transaction_id)
                )
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                INSERT INTO recognition_sales_distributed SELECT * FROM recognition_sales
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                DROP TABLE recognition_sales
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                ALTER TABLE recognition_sales_distributed RENAME TO recognition_sales
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                CREATE INDEX transaction_results_by_next_change ON transaction_results(next_change_at)
                    WHERE next_change_at IS NOT NULL
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                CREATE INDEX revenue_parts_by_transaction ON revenue_parts(transaction_id, seq, gross_milli,
                    refunds_milli)
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                CREATE INDEX ledger_events_by_day ON ledger_events(day)
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                CREATE INDEX IF NOT EXISTS recognition_sales_by_last_change ON recognition_sales(
                    last_change, product_id, currency, amount_milli, start_at, end_at, period_source, refunds)
                """#
            ]
        ),
        ("issue34-distribution-keys", Schema.changeTriggerNames.map(StoreTrigger.postgresDrop)),
        (
            "issue34-distribution-keys",
            [
                #"""
                CREATE TABLE dirty_transactions_distributed (
                    original_transaction_id TEXT COLLATE "C" NOT NULL,
                transaction_id TEXT COLLATE "C" NOT NULL,
                    PRIMARY KEY (transaction_id, original_transaction_id)
                )
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                INSERT INTO dirty_transactions_distributed SELECT COALESCE(
                    (SELECT MIN(t.original_transaction_id) FROM transactions t WHERE t.transaction_id =
                        x.transaction_id),
                    (SELECT MIN(e.original_transaction_id) FROM evidence e WHERE e.transaction_id =
                        x.transaction_id),
                    x.transaction_id), x.transaction_id
                    FROM dirty_transactions x
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                DROP TABLE dirty_transactions
                """#
            ]
        ),
        (
            "issue34-distribution-keys",
            [
                #"""
                ALTER TABLE dirty_transactions_distributed RENAME TO dirty_transactions
                """#
            ]
        ),
        ("issue34-distribution-keys", Schema.changeTriggerList(distributed: true).flatMap(\.postgres)),
        (
            "issue34-distribution-keys",
            [
                #"""
                ALTER TABLE evidence DROP CONSTRAINT IF EXISTS evidence_pkey,
                    ADD CONSTRAINT evidence_pkey PRIMARY KEY (id, group_original_transaction_id)
                """#
            ]
        ),
        (
            "issue45-apple-word-2026",
            [
                #"""
                ALTER TABLE notifications ADD COLUMN external_purchase_id TEXT COLLATE "C"
                """#
            ]
        ),
        (
            "issue45-apple-word-2026",
            [
                #"""
                ALTER TABLE notifications ADD COLUMN app_transaction_id TEXT COLLATE "C"
                """#
            ]
        ),
        (
            "issue45-apple-word-2026",
            [
                #"""
                ALTER TABLE notifications ADD COLUMN consumption_request_reason TEXT COLLATE "C"
                """#
            ]
        ),
        (
            "issue45-apple-word-2026",
            [
                #"""
                ALTER TABLE notifications ADD COLUMN learned_at BIGINT
                """#
            ]
        ),
        (
            "issue45-apple-word-2026",
            [
                #"""
                ALTER TABLE products ADD COLUMN sample_content BIGINT
                """#
            ]
        ),
        (
            "issue45-apple-word-2026",
            [
                #"""
                CREATE INDEX notifications_by_type ON notifications(notification_type, signed_date)
                """#
            ]
        ),
        (
            "issue45-apple-word-2026",
            [
                #"""
                CREATE INDEX notifications_by_app_transaction ON notifications(app_transaction_id)
                """#
            ]
        ),
        (
            "issue45-apple-word-2026",
            [
                #"""
                CREATE TABLE app_transaction_links (
                    app_transaction_id TEXT COLLATE "C" NOT NULL,
                    transaction_id TEXT COLLATE "C" NOT NULL,
                    original_transaction_id TEXT COLLATE "C" NOT NULL,
                    signed_date BIGINT,
                    PRIMARY KEY (app_transaction_id, transaction_id)
                )
                """#
            ]
        ),
        (
            "issue45-apple-word-2026",
            [
                #"""
                CREATE INDEX app_transaction_links_by_transaction ON app_transaction_links(transaction_id)
                """#
            ]
        ),
        (
            "issue45-apple-word-2026",
            [
                #"""
                CREATE INDEX app_transaction_links_by_original ON app_transaction_links(original_transaction_id)
                """#
            ]
        ),
        (
            "issue45-apple-word-2026",
            [
                #"""
                CREATE TABLE commitment_periods (
                    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                    original_transaction_id TEXT COLLATE "C" NOT NULL,
                    transaction_id TEXT COLLATE "C" NOT NULL,
                    product_id TEXT COLLATE "C",
                    environment TEXT COLLATE "C",
                    billing_plan_type TEXT COLLATE "C",
                    billing_period_number BIGINT,
                    total_billing_periods BIGINT,
                    commitment_price_milli BIGINT,
                    commitment_expires_date BIGINT,
                    purchase_date BIGINT,
                    expires_date BIGINT,
                    price_milli BIGINT,
                    currency TEXT COLLATE "C",
                    revocation_date BIGINT,
                    revocation_type TEXT COLLATE "C",
                    revocation_percentage BIGINT,
                    signed_date BIGINT,
                    verification_id BIGINT,
                    recorded_at BIGINT NOT NULL
                )
                """#
            ]
        ),
        (
            "issue45-apple-word-2026",
            [
                #"""
                CREATE INDEX commitment_periods_by_original ON commitment_periods(original_transaction_id,
                    transaction_id)
                """#
            ]
        ),
        (
            "issue45-apple-word-2026",
            [
                #"""
                CREATE TABLE renewal_commitments (
                    original_transaction_id TEXT COLLATE "C" NOT NULL,
                    environment TEXT COLLATE "C" NOT NULL,
                    signed_date BIGINT NOT NULL,
                    auto_renew_status BIGINT,
                    commitment_auto_renew_status BIGINT,
                    is_in_billing_retry_period BIGINT,
                    learned_at BIGINT NOT NULL,
                    PRIMARY KEY (original_transaction_id, environment, signed_date)
                )
                """#
            ]
        ),
    ]
}
