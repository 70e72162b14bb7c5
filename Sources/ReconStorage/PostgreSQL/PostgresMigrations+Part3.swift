/// The store's migrations as PostgreSQL runs them, each statement under its migration's name (part 3 of 7;
/// ``PostgresMigrations``).
extension PostgresMigrations {
    static let part3: [(migration: String, statement: String)] = [
        (
            "issue24-incremental-detection",
            #"""
            CREATE FUNCTION transactions_dirty_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id) SELECT NEW.transaction_id WHERE NOT EXISTS
                    (SELECT 1 FROM dirty_transactions WHERE transaction_id = NEW.transaction_id);
                INSERT INTO dirty_originals (original_transaction_id) SELECT NEW.original_transaction_id WHERE
                    NOT EXISTS (SELECT 1 FROM dirty_originals WHERE original_transaction_id =
                    NEW.original_transaction_id);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TRIGGER transactions_dirty_insert AFTER INSERT ON transactions FOR EACH ROW EXECUTE FUNCTION
                transactions_dirty_insert_fn()
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE FUNCTION transactions_dirty_update_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) AND (OLD.record_id IS DISTINCT FROM NEW.record_id OR
                  OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.product_id IS DISTINCT FROM NEW.product_id OR
                  OLD.transaction_id IS DISTINCT FROM NEW.transaction_id OR OLD.original_transaction_id IS
                  DISTINCT FROM NEW.original_transaction_id OR OLD.purchase_date IS DISTINCT FROM
                  NEW.purchase_date OR OLD.quantity IS DISTINCT FROM NEW.quantity OR OLD.environment IS
                  DISTINCT FROM NEW.environment OR OLD.price_milli IS DISTINCT FROM NEW.price_milli OR
                  OLD.currency IS DISTINCT FROM NEW.currency OR OLD.storefront IS DISTINCT FROM NEW.storefront
                  OR OLD.verification_status IS DISTINCT FROM NEW.verification_status OR OLD.recon_verdict IS
                  DISTINCT FROM NEW.recon_verdict OR OLD.recon_verification_id IS DISTINCT FROM
                  NEW.recon_verification_id OR OLD.delivered_at IS DISTINCT FROM NEW.delivered_at OR
                  OLD.finished_at IS DISTINCT FROM NEW.finished_at OR OLD.receipt_id IS DISTINCT FROM
                  NEW.receipt_id) THEN
                INSERT INTO dirty_transactions (transaction_id) SELECT OLD.transaction_id WHERE NOT EXISTS
                    (SELECT 1 FROM dirty_transactions WHERE transaction_id = OLD.transaction_id);
                INSERT INTO dirty_originals (original_transaction_id) SELECT OLD.original_transaction_id WHERE
                    NOT EXISTS (SELECT 1 FROM dirty_originals WHERE original_transaction_id =
                    OLD.original_transaction_id);
                INSERT INTO dirty_transactions (transaction_id) SELECT NEW.transaction_id WHERE NOT EXISTS
                    (SELECT 1 FROM dirty_transactions WHERE transaction_id = NEW.transaction_id);
                INSERT INTO dirty_originals (original_transaction_id) SELECT NEW.original_transaction_id WHERE
                    NOT EXISTS (SELECT 1 FROM dirty_originals WHERE original_transaction_id =
                    NEW.original_transaction_id);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TRIGGER transactions_dirty_update AFTER UPDATE ON transactions FOR EACH ROW EXECUTE FUNCTION
                transactions_dirty_update_fn()
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE FUNCTION transactions_dirty_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id) SELECT OLD.transaction_id WHERE NOT EXISTS
                    (SELECT 1 FROM dirty_transactions WHERE transaction_id = OLD.transaction_id);
                INSERT INTO dirty_originals (original_transaction_id) SELECT OLD.original_transaction_id WHERE
                    NOT EXISTS (SELECT 1 FROM dirty_originals WHERE original_transaction_id =
                    OLD.original_transaction_id);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TRIGGER transactions_dirty_delete AFTER DELETE ON transactions FOR EACH ROW EXECUTE FUNCTION
                transactions_dirty_delete_fn()
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE FUNCTION evidence_dirty_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id) SELECT NEW.transaction_id WHERE NOT EXISTS
                    (SELECT 1 FROM dirty_transactions WHERE transaction_id = NEW.transaction_id);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TRIGGER evidence_dirty_insert AFTER INSERT ON evidence FOR EACH ROW EXECUTE FUNCTION
                evidence_dirty_insert_fn()
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE FUNCTION evidence_dirty_update_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id) SELECT OLD.transaction_id WHERE NOT EXISTS
                    (SELECT 1 FROM dirty_transactions WHERE transaction_id = OLD.transaction_id);
                INSERT INTO dirty_transactions (transaction_id) SELECT NEW.transaction_id WHERE NOT EXISTS
                    (SELECT 1 FROM dirty_transactions WHERE transaction_id = NEW.transaction_id);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TRIGGER evidence_dirty_update AFTER UPDATE ON evidence FOR EACH ROW EXECUTE FUNCTION
                evidence_dirty_update_fn()
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE FUNCTION evidence_dirty_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id) SELECT OLD.transaction_id WHERE NOT EXISTS
                    (SELECT 1 FROM dirty_transactions WHERE transaction_id = OLD.transaction_id);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TRIGGER evidence_dirty_delete AFTER DELETE ON evidence FOR EACH ROW EXECUTE FUNCTION
                evidence_dirty_delete_fn()
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE FUNCTION receipts_dirty_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id) SELECT DISTINCT e.transaction_id FROM evidence
                    e WHERE e.receipt_id = NEW.receipt_id AND NOT EXISTS (SELECT 1 FROM dirty_transactions d
                    WHERE d.transaction_id = e.transaction_id);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TRIGGER receipts_dirty_insert AFTER INSERT ON receipts FOR EACH ROW EXECUTE FUNCTION
                receipts_dirty_insert_fn()
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE FUNCTION receipts_dirty_update_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) AND (OLD.user_id IS DISTINCT FROM NEW.user_id OR
                  OLD.format IS DISTINCT FROM NEW.format OR OLD.data IS DISTINCT FROM NEW.data) THEN
                INSERT INTO dirty_transactions (transaction_id) SELECT DISTINCT e.transaction_id FROM evidence
                    e WHERE e.receipt_id = OLD.receipt_id AND NOT EXISTS (SELECT 1 FROM dirty_transactions d
                    WHERE d.transaction_id = e.transaction_id);
                INSERT INTO dirty_transactions (transaction_id) SELECT DISTINCT e.transaction_id FROM evidence
                    e WHERE e.receipt_id = NEW.receipt_id AND NOT EXISTS (SELECT 1 FROM dirty_transactions d
                    WHERE d.transaction_id = e.transaction_id);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TRIGGER receipts_dirty_update AFTER UPDATE ON receipts FOR EACH ROW EXECUTE FUNCTION
                receipts_dirty_update_fn()
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE FUNCTION receipts_dirty_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id) SELECT DISTINCT e.transaction_id FROM evidence
                    e WHERE e.receipt_id = OLD.receipt_id AND NOT EXISTS (SELECT 1 FROM dirty_transactions d
                    WHERE d.transaction_id = e.transaction_id);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TRIGGER receipts_dirty_delete AFTER DELETE ON receipts FOR EACH ROW EXECUTE FUNCTION
                receipts_dirty_delete_fn()
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE FUNCTION receipt_checks_dirty_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id) SELECT DISTINCT e.transaction_id FROM evidence
                    e WHERE e.receipt_id = NEW.receipt_id AND NOT EXISTS (SELECT 1 FROM dirty_transactions d
                    WHERE d.transaction_id = e.transaction_id);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TRIGGER receipt_checks_dirty_insert AFTER INSERT ON receipt_checks FOR EACH ROW EXECUTE
                FUNCTION receipt_checks_dirty_insert_fn()
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE FUNCTION receipt_checks_dirty_update_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id) SELECT DISTINCT e.transaction_id FROM evidence
                    e WHERE e.receipt_id = OLD.receipt_id AND NOT EXISTS (SELECT 1 FROM dirty_transactions d
                    WHERE d.transaction_id = e.transaction_id);
                INSERT INTO dirty_transactions (transaction_id) SELECT DISTINCT e.transaction_id FROM evidence
                    e WHERE e.receipt_id = NEW.receipt_id AND NOT EXISTS (SELECT 1 FROM dirty_transactions d
                    WHERE d.transaction_id = e.transaction_id);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TRIGGER receipt_checks_dirty_update AFTER UPDATE ON receipt_checks FOR EACH ROW EXECUTE
                FUNCTION receipt_checks_dirty_update_fn()
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE FUNCTION receipt_checks_dirty_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id) SELECT DISTINCT e.transaction_id FROM evidence
                    e WHERE e.receipt_id = OLD.receipt_id AND NOT EXISTS (SELECT 1 FROM dirty_transactions d
                    WHERE d.transaction_id = e.transaction_id);
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TRIGGER receipt_checks_dirty_delete AFTER DELETE ON receipt_checks FOR EACH ROW EXECUTE
                FUNCTION receipt_checks_dirty_delete_fn()
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TABLE transaction_results (
            transaction_id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
            next_change_at BIGINT,
            excluded_currency TEXT COLLATE "C",
            excluded_milli BIGINT,
            recovered_currency TEXT COLLATE "C",
            recovered_milli BIGINT,
            unpriced BIGINT NOT NULL,
            duplicates BIGINT NOT NULL
            )
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TABLE transaction_findings (
            group_id TEXT COLLATE "C" NOT NULL,
            seq BIGINT NOT NULL,
            fingerprint TEXT COLLATE "C" NOT NULL, severity_rank BIGINT NOT NULL, code TEXT COLLATE "C" NOT
                NULL,
            transaction_id TEXT COLLATE "C" NOT NULL, original_transaction_id TEXT COLLATE "C", user_ids TEXT
                COLLATE "C" NOT NULL, product_id TEXT COLLATE "C",
            environment TEXT COLLATE "C", amount_milli BIGINT, currency TEXT COLLATE "C", detail TEXT COLLATE
                "C" NOT NULL, record_ids TEXT COLLATE "C" NOT NULL,
            receipt_id TEXT COLLATE "C", subject TEXT COLLATE "C", aged_before TEXT COLLATE "C", aged_since
                BIGINT, aged_after TEXT COLLATE "C",
            PRIMARY KEY (group_id, seq)
            )
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TABLE original_results (
            original_transaction_id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
            next_change_at BIGINT
            )
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TABLE original_findings (
            group_id TEXT COLLATE "C" NOT NULL,
            seq BIGINT NOT NULL,
            fingerprint TEXT COLLATE "C" NOT NULL, severity_rank BIGINT NOT NULL, code TEXT COLLATE "C" NOT
                NULL,
            transaction_id TEXT COLLATE "C" NOT NULL, original_transaction_id TEXT COLLATE "C", user_ids TEXT
                COLLATE "C" NOT NULL, product_id TEXT COLLATE "C",
            environment TEXT COLLATE "C", amount_milli BIGINT, currency TEXT COLLATE "C", detail TEXT COLLATE
                "C" NOT NULL, record_ids TEXT COLLATE "C" NOT NULL,
            receipt_id TEXT COLLATE "C", subject TEXT COLLATE "C", aged_before TEXT COLLATE "C", aged_since
                BIGINT, aged_after TEXT COLLATE "C",
            PRIMARY KEY (group_id, seq)
            )
            """#
        ),
        (
            "issue24-incremental-detection",
            #"""
            CREATE TABLE revenue_parts (
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
            "issue24-incremental-detection",
            #"""
            CREATE TABLE ledger_events (
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
    ]
}
