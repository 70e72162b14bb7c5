/// The store's migrations as PostgreSQL runs them, each statement under its migration's name (part 4 of 7;
/// ``PostgresMigrations``).
extension PostgresMigrations {
    static let part4: [(migration: String, statement: String)] = [
        (
            "issue24-incremental-detection",
            #"""
            CREATE TABLE recognition_sales (
            transaction_id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
            original_transaction_id TEXT COLLATE "C" NOT NULL,
            user_id TEXT COLLATE "C" NOT NULL,
            product_id TEXT COLLATE "C" NOT NULL,
            currency TEXT COLLATE "C" NOT NULL,
            amount_milli BIGINT NOT NULL,
            start_at BIGINT NOT NULL,
            end_at BIGINT,
            period_source TEXT COLLATE "C" NOT NULL,
            refunds TEXT COLLATE "C" NOT NULL,
            last_change BIGINT NOT NULL
            )
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TABLE revenue_lines (
            day BIGINT NOT NULL,
            product_id TEXT COLLATE "C" NOT NULL,
            currency TEXT COLLATE "C" NOT NULL,
            units BIGINT NOT NULL,
            gross_milli BIGINT NOT NULL,
            refunds_milli BIGINT NOT NULL,
            estimated_milli BIGINT NOT NULL,
            proceeds_milli BIGINT NOT NULL,
            proceeds_currency TEXT COLLATE "C" NOT NULL,
            proceeds_source TEXT COLLATE "C" NOT NULL,
            PRIMARY KEY (day, product_id, currency)
            )
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE INDEX transaction_results_by_next_change ON transaction_results(next_change_at)
                WHERE next_change_at IS NOT NULL
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE INDEX revenue_parts_by_transaction ON revenue_parts(transaction_id, seq, gross_milli,
                refunds_milli)
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE INDEX ledger_events_by_day ON ledger_events(day)
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE INDEX original_results_by_next_change ON original_results(next_change_at)
                WHERE next_change_at IS NOT NULL
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE INDEX IF NOT EXISTS recognition_sales_by_last_change ON recognition_sales(
                last_change, product_id, currency, amount_milli, start_at, end_at, period_source, refunds)
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TABLE same_purchase_shown (
                transaction_id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                purchase TEXT COLLATE "C" NOT NULL
            )
            """#
        ),
        (
            "issue24-kept-ledger-events",
            #"""
            CREATE TABLE IF NOT EXISTS ledger_events (
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
            PRIMARY KEY (transaction_id, seq)
            )
            """#
        ),
        (
            "issue24-kept-ledger-events",
            #"""
            CREATE INDEX IF NOT EXISTS ledger_events_by_day ON ledger_events(day)
            """#
        ),
        (
            "issue24-kept-ledger-events",
            #"""
            CREATE TABLE dirty_report_days (
                first_day BIGINT NOT NULL,
                last_day BIGINT NOT NULL,
                PRIMARY KEY (first_day, last_day)
            )
            """#
        ),
        (
            "issue24-kept-ledger-events",
            #"""
            CREATE FUNCTION sales_report_rows_days_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_report_days (first_day, last_day) SELECT NEW.day, NEW.day WHERE NOT EXISTS
                    (SELECT 1 FROM dirty_report_days WHERE first_day = NEW.day AND last_day = NEW.day);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-kept-ledger-events",
            #"""
            CREATE TRIGGER sales_report_rows_days_insert AFTER INSERT ON sales_report_rows FOR EACH ROW EXECUTE
                FUNCTION sales_report_rows_days_insert_fn()
            """#
        ),
        (
            "issue24-kept-ledger-events",
            #"""
            CREATE FUNCTION sales_report_rows_days_update_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_report_days (first_day, last_day) SELECT OLD.day, OLD.day WHERE NOT EXISTS
                    (SELECT 1 FROM dirty_report_days WHERE first_day = OLD.day AND last_day = OLD.day);
                INSERT INTO dirty_report_days (first_day, last_day) SELECT NEW.day, NEW.day WHERE NOT EXISTS
                    (SELECT 1 FROM dirty_report_days WHERE first_day = NEW.day AND last_day = NEW.day);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-kept-ledger-events",
            #"""
            CREATE TRIGGER sales_report_rows_days_update AFTER UPDATE ON sales_report_rows FOR EACH ROW EXECUTE
                FUNCTION sales_report_rows_days_update_fn()
            """#
        ),
        (
            "issue24-kept-ledger-events",
            #"""
            CREATE FUNCTION sales_report_rows_days_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_report_days (first_day, last_day) SELECT OLD.day, OLD.day WHERE NOT EXISTS
                    (SELECT 1 FROM dirty_report_days WHERE first_day = OLD.day AND last_day = OLD.day);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-kept-ledger-events",
            #"""
            CREATE TRIGGER sales_report_rows_days_delete AFTER DELETE ON sales_report_rows FOR EACH ROW EXECUTE
                FUNCTION sales_report_rows_days_delete_fn()
            """#
        ),
        (
            "issue24-kept-ledger-events",
            #"""
            CREATE FUNCTION financial_reports_days_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_report_days (first_day, last_day) SELECT NEW.period_start, NEW.period_end
                    WHERE NOT EXISTS (SELECT 1 FROM dirty_report_days WHERE first_day = NEW.period_start AND
                    last_day = NEW.period_end);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-kept-ledger-events",
            #"""
            CREATE TRIGGER financial_reports_days_insert AFTER INSERT ON financial_reports FOR EACH ROW EXECUTE
                FUNCTION financial_reports_days_insert_fn()
            """#
        ),
        (
            "issue24-kept-ledger-events",
            #"""
            CREATE FUNCTION financial_reports_days_update_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_report_days (first_day, last_day) SELECT OLD.period_start, OLD.period_end
                    WHERE NOT EXISTS (SELECT 1 FROM dirty_report_days WHERE first_day = OLD.period_start AND
                    last_day = OLD.period_end);
                INSERT INTO dirty_report_days (first_day, last_day) SELECT NEW.period_start, NEW.period_end
                    WHERE NOT EXISTS (SELECT 1 FROM dirty_report_days WHERE first_day = NEW.period_start AND
                    last_day = NEW.period_end);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-kept-ledger-events",
            #"""
            CREATE TRIGGER financial_reports_days_update AFTER UPDATE ON financial_reports FOR EACH ROW EXECUTE
                FUNCTION financial_reports_days_update_fn()
            """#
        ),
        (
            "issue24-kept-ledger-events",
            #"""
            CREATE FUNCTION financial_reports_days_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_report_days (first_day, last_day) SELECT OLD.period_start, OLD.period_end
                    WHERE NOT EXISTS (SELECT 1 FROM dirty_report_days WHERE first_day = OLD.period_start AND
                    last_day = OLD.period_end);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-kept-ledger-events",
            #"""
            CREATE TRIGGER financial_reports_days_delete AFTER DELETE ON financial_reports FOR EACH ROW EXECUTE
                FUNCTION financial_reports_days_delete_fn()
            """#
        ),
        (
            "issue24-findings-recorded",
            #"""
            CREATE TABLE findings_recorded (
                id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY CHECK (id = 1),
                run BIGINT NOT NULL,
                at BIGINT NOT NULL
            )
            """#
        ),
        (
            "issue24-findings-recorded",
            #"""
            INSERT INTO findings_recorded (id, run, at)
                SELECT 1, run, at FROM (
                    SELECT last_seen_run AS run, last_seen_at AS at FROM findings
                    UNION ALL SELECT resolved_run, resolved_at FROM findings WHERE resolved_at IS NOT NULL) AS
                        subquery_74
                ORDER BY at DESC, run DESC LIMIT 1
            """#
        ),
        (
            "issue24-findings-recorded",
            #"""
            ALTER TABLE findings ADD COLUMN aged_before TEXT COLLATE "C"
            """#
        ),
        (
            "issue24-findings-recorded",
            #"""
            ALTER TABLE findings ADD COLUMN aged_since BIGINT
            """#
        ),
        (
            "issue24-findings-recorded",
            #"""
            ALTER TABLE findings ADD COLUMN aged_after TEXT COLLATE "C"
            """#
        ),
        (
            "issue24-findings-recorded",
            #"""
            CREATE INDEX findings_open ON findings(fingerprint) WHERE resolved_at IS NULL
            """#
        ),
        (
            "issue24-findings-recorded",
            #"""
            CREATE INDEX findings_by_resolved_run ON findings(resolved_run, resolved_at) WHERE resolved_run IS
                NOT NULL
            """#
        ),
        (
            "issue24-revenue-parts-by-line",
            #"""
            CREATE TABLE revenue_parts_by_line_new (
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
            PRIMARY KEY (day, product_id, currency, transaction_id, seq)
            )
            """#
        ),
        (
            "issue24-revenue-parts-by-line",
            #"""
            INSERT INTO revenue_parts_by_line_new SELECT * FROM revenue_parts
                ORDER BY day, product_id NULLS FIRST, currency NULLS FIRST, transaction_id NULLS FIRST, seq
            """#
        ),
        (
            "issue24-revenue-parts-by-line",
            #"""
            DROP TABLE revenue_parts
            """#
        ),
        (
            "issue24-revenue-parts-by-line",
            #"""
            ALTER TABLE revenue_parts_by_line_new RENAME TO revenue_parts
            """#
        ),
        (
            "issue24-revenue-parts-by-line",
            #"""
            CREATE INDEX revenue_parts_by_transaction ON revenue_parts(transaction_id, seq, gross_milli,
                refunds_milli)
            """#
        ),
        (
            "issue35-catalog-duration",
            #"""
            ALTER TABLE products ADD COLUMN duration TEXT COLLATE "C"
            """#
        ),
        (
            "issue35-deferred-revenue-shown",
            #"""
            CREATE TABLE deferred_revenue_shown (
                month BIGINT NOT NULL,
                product_id TEXT COLLATE "C" NOT NULL,
                currency TEXT COLLATE "C" NOT NULL,
                opening_milli BIGINT NOT NULL,
                billings_milli BIGINT NOT NULL,
                recognized_milli BIGINT NOT NULL,
                released_milli BIGINT NOT NULL,
                reversed_milli BIGINT NOT NULL,
                PRIMARY KEY (month, product_id, currency)
            )
            """#
        ),
        (
            "issue35-deferred-revenue-shown",
            #"""
            CREATE TABLE deferred_revenue_shown_report (
                id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY CHECK (id = 1),
                last_month BIGINT NOT NULL
            )
            """#
        ),
        (
            "issue35-recognition-kept",
            #"""
            CREATE TABLE IF NOT EXISTS recognition_sales (
            transaction_id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
            original_transaction_id TEXT COLLATE "C" NOT NULL,
            user_id TEXT COLLATE "C" NOT NULL,
            product_id TEXT COLLATE "C" NOT NULL,
            currency TEXT COLLATE "C" NOT NULL,
            amount_milli BIGINT NOT NULL,
            start_at BIGINT NOT NULL,
            end_at BIGINT,
            period_source TEXT COLLATE "C" NOT NULL,
            refunds TEXT COLLATE "C" NOT NULL,
            last_change BIGINT NOT NULL
            )
            """#
        ),
    ]
}
