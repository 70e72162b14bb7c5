#!/usr/bin/env bash
# Import benchmark: iap-recon import of a 1,000,000-row ledger beside two baselines measured in
# the same run on the same file: the sqlite3 shell loading it then building the same indexes,
# and the sqlite3 shell inserting into an already-indexed table.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-1000000}
BIN=./.build/release/iap-recon
DATA=bench-data
mkdir -p "$DATA"
CSV="$DATA/transactions-$ROWS.csv"
[ -f "$CSV" ] || python3 scripts/gen_ledger.py "$ROWS" "$CSV"
echo "input: $CSV ($(du -h "$CSV" | cut -f1), $ROWS rows)"

measure() {  # name, command...
    local name=$1; shift
    local log; log=$(mktemp)
    /usr/bin/time -f "%e %M" -o "$log" "$@" >/dev/null
    read -r secs kb < "$log"; rm -f "$log"
    printf '%-34s %8.2f s  %8.1f MB peak RSS\n' "$name" "$secs" "$(echo "$kb / 1024" | bc -l)"
    echo "$secs" > "$DATA/last.time"
}

INDEXES="CREATE INDEX t1 ON transactions(transaction_id); CREATE INDEX t2 ON transactions(original_transaction_id);
CREATE INDEX t3 ON transactions(user_id); CREATE INDEX t4 ON transactions(receipt_id) WHERE receipt_id <> '';
CREATE INDEX t5 ON transactions(purchase_date) WHERE verification_status = 'pending';"

rm -f "$DATA"/*.sqlite*
measure "sqlite3 .import, then index" sqlite3 "$DATA/baseline1.sqlite" \
    -cmd "PRAGMA journal_mode=WAL" -cmd "PRAGMA synchronous=NORMAL" \
    -cmd ".mode csv" -cmd ".import $CSV transactions" "$INDEXES"
BASE1=$(cat "$DATA/last.time")

SCHEMA="CREATE TABLE transactions (record_id TEXT PRIMARY KEY, user_id TEXT, product_id TEXT, transaction_id TEXT,
original_transaction_id TEXT, purchase_date TEXT, quantity TEXT, environment TEXT, price TEXT, currency TEXT,
storefront TEXT, verification_status TEXT, delivered_at TEXT, finished_at TEXT, receipt_id TEXT) WITHOUT ROWID; $INDEXES"
sqlite3 "$DATA/baseline2.sqlite" "$SCHEMA"
measure "sqlite3 .import into indexed table" sqlite3 "$DATA/baseline2.sqlite" \
    -cmd "PRAGMA journal_mode=WAL" -cmd "PRAGMA synchronous=NORMAL" \
    -cmd ".mode csv" -cmd ".import --skip 1 $CSV transactions" "SELECT 1"

measure "iap-recon import (fresh store)" "$BIN" import --db "$DATA/recon.sqlite" --transactions "$CSV"
OURS=$(cat "$DATA/last.time")
measure "iap-recon import (re-import, upsert)" "$BIN" import --db "$DATA/recon.sqlite" --transactions "$CSV"

echo "ratio to load-then-index baseline: $(echo "scale=2; $OURS / $BASE1" | bc -l) (target <= 1.2)"

echo
echo "== detection: 1,000,000 transactions + 1,000,000 evidence rows =="
DB="$DATA/recon.sqlite"
sqlite3 "$DB" "DELETE FROM evidence; INSERT INTO evidence (source, transaction_id, original_transaction_id, product_id,
    quantity, purchase_date, environment, bundle_id, signature, apple_status, recorded_at)
  SELECT 'verifyReceipt', transaction_id, original_transaction_id, product_id, quantity, purchase_date, 'Production',
    'com.example.app', 'not-checked', 0, 1795000000000 FROM transactions;"
echo "evidence rows: $(sqlite3 "$DB" 'SELECT COUNT(*) FROM evidence')"
measure "detection + revenue (1M + 1M)" ./.build/release/iap-recon-bench detect "$DB"
./.build/release/iap-recon-bench detect "$DB"
measure "iap-recon report (whole, incl. XLSX)" "$BIN" report --db "$DB" --out "$DATA/report" --as-of 2026-11-20T12:00:00Z

echo
echo "== JWS verification and verify throughput =="
./.build/release/iap-recon-bench jws 200000
./.build/release/iap-recon-bench verify-stage 5000
