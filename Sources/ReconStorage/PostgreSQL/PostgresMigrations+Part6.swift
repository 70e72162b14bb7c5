/// The store's migrations as PostgreSQL runs them, each statement under its migration's name (part 6 of 7;
/// ``PostgresMigrations``).
extension PostgresMigrations {
    static let part6: [(migration: String, statement: String)] = [
        (
            "issue34-distribution-keys",
            #"""
            DROP FUNCTION receipt_checks_dirty_delete_fn() CASCADE
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE TABLE dirty_transactions_distributed (
                original_transaction_id TEXT COLLATE "C" NOT NULL,
            transaction_id TEXT COLLATE "C" NOT NULL,
                PRIMARY KEY (transaction_id, original_transaction_id)
            )
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            INSERT INTO dirty_transactions_distributed SELECT COALESCE(
                (SELECT MIN(t.original_transaction_id) FROM transactions t WHERE t.transaction_id =
                    x.transaction_id),
                (SELECT MIN(e.original_transaction_id) FROM evidence e WHERE e.transaction_id =
                    x.transaction_id),
                x.transaction_id), x.transaction_id
                FROM dirty_transactions x
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            DROP TABLE dirty_transactions
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            ALTER TABLE dirty_transactions_distributed RENAME TO dirty_transactions
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE FUNCTION transactions_dirty_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id, original_transaction_id) SELECT
                    NEW.transaction_id, COALESCE (NEW.original_transaction_id, NEW.transaction_id) WHERE NOT
                    EXISTS (SELECT 1 FROM dirty_transactions WHERE transaction_id = NEW.transaction_id AND
                    original_transaction_id = COALESCE (NEW.original_transaction_id, NEW.transaction_id));
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
            "issue34-distribution-keys",
            #"""
            CREATE TRIGGER transactions_dirty_insert AFTER INSERT ON transactions FOR EACH ROW EXECUTE FUNCTION
                transactions_dirty_insert_fn()
            """#
        ),
        (
            "issue34-distribution-keys",
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
                INSERT INTO dirty_transactions (transaction_id, original_transaction_id) SELECT
                    OLD.transaction_id, COALESCE (OLD.original_transaction_id, OLD.transaction_id) WHERE NOT
                    EXISTS (SELECT 1 FROM dirty_transactions WHERE transaction_id = OLD.transaction_id AND
                    original_transaction_id = COALESCE (OLD.original_transaction_id, OLD.transaction_id));
                INSERT INTO dirty_originals (original_transaction_id) SELECT OLD.original_transaction_id WHERE
                    NOT EXISTS (SELECT 1 FROM dirty_originals WHERE original_transaction_id =
                    OLD.original_transaction_id);
                INSERT INTO dirty_transactions (transaction_id, original_transaction_id) SELECT
                    NEW.transaction_id, COALESCE (NEW.original_transaction_id, NEW.transaction_id) WHERE NOT
                    EXISTS (SELECT 1 FROM dirty_transactions WHERE transaction_id = NEW.transaction_id AND
                    original_transaction_id = COALESCE (NEW.original_transaction_id, NEW.transaction_id));
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
            "issue34-distribution-keys",
            #"""
            CREATE TRIGGER transactions_dirty_update AFTER UPDATE ON transactions FOR EACH ROW EXECUTE FUNCTION
                transactions_dirty_update_fn()
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE FUNCTION transactions_dirty_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id, original_transaction_id) SELECT
                    OLD.transaction_id, COALESCE (OLD.original_transaction_id, OLD.transaction_id) WHERE NOT
                    EXISTS (SELECT 1 FROM dirty_transactions WHERE transaction_id = OLD.transaction_id AND
                    original_transaction_id = COALESCE (OLD.original_transaction_id, OLD.transaction_id));
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
            "issue34-distribution-keys",
            #"""
            CREATE TRIGGER transactions_dirty_delete AFTER DELETE ON transactions FOR EACH ROW EXECUTE FUNCTION
                transactions_dirty_delete_fn()
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE FUNCTION evidence_dirty_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id, original_transaction_id) SELECT
                    NEW.transaction_id, COALESCE (NEW.original_transaction_id, NEW.transaction_id) WHERE NOT
                    EXISTS (SELECT 1 FROM dirty_transactions WHERE transaction_id = NEW.transaction_id AND
                    original_transaction_id = COALESCE (NEW.original_transaction_id, NEW.transaction_id));
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE TRIGGER evidence_dirty_insert AFTER INSERT ON evidence FOR EACH ROW EXECUTE FUNCTION
                evidence_dirty_insert_fn()
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE FUNCTION evidence_dirty_update_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id, original_transaction_id) SELECT
                    OLD.transaction_id, COALESCE (OLD.original_transaction_id, OLD.transaction_id) WHERE NOT
                    EXISTS (SELECT 1 FROM dirty_transactions WHERE transaction_id = OLD.transaction_id AND
                    original_transaction_id = COALESCE (OLD.original_transaction_id, OLD.transaction_id));
                INSERT INTO dirty_transactions (transaction_id, original_transaction_id) SELECT
                    NEW.transaction_id, COALESCE (NEW.original_transaction_id, NEW.transaction_id) WHERE NOT
                    EXISTS (SELECT 1 FROM dirty_transactions WHERE transaction_id = NEW.transaction_id AND
                    original_transaction_id = COALESCE (NEW.original_transaction_id, NEW.transaction_id));
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE TRIGGER evidence_dirty_update AFTER UPDATE ON evidence FOR EACH ROW EXECUTE FUNCTION
                evidence_dirty_update_fn()
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE FUNCTION evidence_dirty_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id, original_transaction_id) SELECT
                    OLD.transaction_id, COALESCE (OLD.original_transaction_id, OLD.transaction_id) WHERE NOT
                    EXISTS (SELECT 1 FROM dirty_transactions WHERE transaction_id = OLD.transaction_id AND
                    original_transaction_id = COALESCE (OLD.original_transaction_id, OLD.transaction_id));
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE TRIGGER evidence_dirty_delete AFTER DELETE ON evidence FOR EACH ROW EXECUTE FUNCTION
                evidence_dirty_delete_fn()
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE FUNCTION receipts_dirty_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id, original_transaction_id) SELECT DISTINCT
                    e.transaction_id, COALESCE (e.original_transaction_id, e.transaction_id) FROM evidence e
                    WHERE e.receipt_id = NEW.receipt_id AND NOT EXISTS (SELECT 1 FROM dirty_transactions d
                    WHERE d.transaction_id = e.transaction_id AND d.original_transaction_id = COALESCE
                    (e.original_transaction_id, e.transaction_id));
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE TRIGGER receipts_dirty_insert AFTER INSERT ON receipts FOR EACH ROW EXECUTE FUNCTION
                receipts_dirty_insert_fn()
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE FUNCTION receipts_dirty_update_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) AND (OLD.user_id IS DISTINCT FROM NEW.user_id OR
                  OLD.format IS DISTINCT FROM NEW.format OR OLD.data IS DISTINCT FROM NEW.data) THEN
                INSERT INTO dirty_transactions (transaction_id, original_transaction_id) SELECT DISTINCT
                    e.transaction_id, COALESCE (e.original_transaction_id, e.transaction_id) FROM evidence e
                    WHERE e.receipt_id = OLD.receipt_id AND NOT EXISTS (SELECT 1 FROM dirty_transactions d
                    WHERE d.transaction_id = e.transaction_id AND d.original_transaction_id = COALESCE
                    (e.original_transaction_id, e.transaction_id));
                INSERT INTO dirty_transactions (transaction_id, original_transaction_id) SELECT DISTINCT
                    e.transaction_id, COALESCE (e.original_transaction_id, e.transaction_id) FROM evidence e
                    WHERE e.receipt_id = NEW.receipt_id AND NOT EXISTS (SELECT 1 FROM dirty_transactions d
                    WHERE d.transaction_id = e.transaction_id AND d.original_transaction_id = COALESCE
                    (e.original_transaction_id, e.transaction_id));
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE TRIGGER receipts_dirty_update AFTER UPDATE ON receipts FOR EACH ROW EXECUTE FUNCTION
                receipts_dirty_update_fn()
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE FUNCTION receipts_dirty_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id, original_transaction_id) SELECT DISTINCT
                    e.transaction_id, COALESCE (e.original_transaction_id, e.transaction_id) FROM evidence e
                    WHERE e.receipt_id = OLD.receipt_id AND NOT EXISTS (SELECT 1 FROM dirty_transactions d
                    WHERE d.transaction_id = e.transaction_id AND d.original_transaction_id = COALESCE
                    (e.original_transaction_id, e.transaction_id));
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE TRIGGER receipts_dirty_delete AFTER DELETE ON receipts FOR EACH ROW EXECUTE FUNCTION
                receipts_dirty_delete_fn()
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE FUNCTION receipt_checks_dirty_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id, original_transaction_id) SELECT DISTINCT
                    e.transaction_id, COALESCE (e.original_transaction_id, e.transaction_id) FROM evidence e
                    WHERE e.receipt_id = NEW.receipt_id AND NOT EXISTS (SELECT 1 FROM dirty_transactions d
                    WHERE d.transaction_id = e.transaction_id AND d.original_transaction_id = COALESCE
                    (e.original_transaction_id, e.transaction_id));
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE TRIGGER receipt_checks_dirty_insert AFTER INSERT ON receipt_checks FOR EACH ROW EXECUTE
                FUNCTION receipt_checks_dirty_insert_fn()
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE FUNCTION receipt_checks_dirty_update_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id, original_transaction_id) SELECT DISTINCT
                    e.transaction_id, COALESCE (e.original_transaction_id, e.transaction_id) FROM evidence e
                    WHERE e.receipt_id = OLD.receipt_id AND NOT EXISTS (SELECT 1 FROM dirty_transactions d
                    WHERE d.transaction_id = e.transaction_id AND d.original_transaction_id = COALESCE
                    (e.original_transaction_id, e.transaction_id));
                INSERT INTO dirty_transactions (transaction_id, original_transaction_id) SELECT DISTINCT
                    e.transaction_id, COALESCE (e.original_transaction_id, e.transaction_id) FROM evidence e
                    WHERE e.receipt_id = NEW.receipt_id AND NOT EXISTS (SELECT 1 FROM dirty_transactions d
                    WHERE d.transaction_id = e.transaction_id AND d.original_transaction_id = COALESCE
                    (e.original_transaction_id, e.transaction_id));
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE TRIGGER receipt_checks_dirty_update AFTER UPDATE ON receipt_checks FOR EACH ROW EXECUTE
                FUNCTION receipt_checks_dirty_update_fn()
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE FUNCTION receipt_checks_dirty_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $trigger$
            BEGIN
              IF EXISTS (SELECT 1 FROM detection_state) THEN
                INSERT INTO dirty_transactions (transaction_id, original_transaction_id) SELECT DISTINCT
                    e.transaction_id, COALESCE (e.original_transaction_id, e.transaction_id) FROM evidence e
                    WHERE e.receipt_id = OLD.receipt_id AND NOT EXISTS (SELECT 1 FROM dirty_transactions d
                    WHERE d.transaction_id = e.transaction_id AND d.original_transaction_id = COALESCE
                    (e.original_transaction_id, e.transaction_id));
              END IF;
              RETURN NULL;
            END
            $trigger$
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            CREATE TRIGGER receipt_checks_dirty_delete AFTER DELETE ON receipt_checks FOR EACH ROW EXECUTE
                FUNCTION receipt_checks_dirty_delete_fn()
            """#
        ),
        (
            "issue34-distribution-keys",
            #"""
            ALTER TABLE evidence DROP CONSTRAINT IF EXISTS evidence_pkey,
                ADD CONSTRAINT evidence_pkey PRIMARY KEY (id, group_original_transaction_id)
            """#
        ),
        (
            "issue45-apple-word-2026",
            #"""
            ALTER TABLE notifications ADD COLUMN external_purchase_id TEXT COLLATE "C"
            """#
        ),
        (
            "issue45-apple-word-2026",
            #"""
            ALTER TABLE notifications ADD COLUMN app_transaction_id TEXT COLLATE "C"
            """#
        ),
        (
            "issue45-apple-word-2026",
            #"""
            ALTER TABLE notifications ADD COLUMN consumption_request_reason TEXT COLLATE "C"
            """#
        ),
        (
            "issue45-apple-word-2026",
            #"""
            ALTER TABLE notifications ADD COLUMN learned_at BIGINT
            """#
        ),
    ]
}
