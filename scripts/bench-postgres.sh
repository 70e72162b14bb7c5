#!/usr/bin/env bash
# `make bench`, PostgreSQL part: the same ledger imported from the CSV file and from a query on a
# throwaway PostgreSQL server holding it in typed columns (timestamptz, numeric, smallint), each
# into a fresh store. Prints wall time and peak RSS of both, and their ratio (target <= 1.5).
# Environment: CSV, PRODUCTS, BIN (from bench.sh), DATA (default bench-data).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-bench-data}
BIN=${BIN:-./.build/release/iap-recon}
source scripts/bench-lib.sh
if ! start_throwaway_postgres bench-pg; then
    echo "PostgreSQL import skipped: no server programs (apt-get install postgresql)"
    exit 0
fi
URL="postgresql://recon:$PASSWORD@127.0.0.1:$PORT/postgres?sslmode=disable"
PGPASSWORD=$PASSWORD psql -X -q -v ON_ERROR_STOP=1 "postgresql://recon@127.0.0.1:$PORT/postgres" <<SQL
CREATE TABLE ledger (record_id text PRIMARY KEY, user_id text, product_id text, transaction_id text,
    original_transaction_id text, purchase_date timestamptz, quantity smallint, environment text, price numeric,
    currency char(3), storefront text, verification_status text, delivered_at timestamptz, finished_at timestamptz,
    receipt_id text);
\copy ledger FROM '$CSV' WITH (FORMAT csv, HEADER true)
VACUUM ANALYZE ledger;
SQL
QUERY="SELECT record_id, user_id, product_id, transaction_id, original_transaction_id, purchase_date, quantity,
    environment, price, currency, storefront, verification_status, delivered_at, finished_at, receipt_id FROM ledger"

measure() {  # label, command...
    local label=$1; shift
    local log; log=$(mktemp)
    /usr/bin/time -f "%e %M" -o "$log" "$@" >/dev/null 2>>"$DATA/bench.log"
    read -r secs kb < "$log"; rm -f "$log"
    echo "$secs $(( kb / 1024 ))"
}
rm -f "$DATA"/pg-file.sqlite* "$DATA"/pg-query.sqlite*
read -r FILE_S FILE_MB < <(measure file "$BIN" import --db "$DATA/pg-file.sqlite" --transactions "$CSV" --products "$PRODUCTS")
read -r QUERY_S QUERY_MB < <(measure query "$BIN" import --db "$DATA/pg-query.sqlite" --products "$PRODUCTS" \
    --source-db "$URL" --transactions-query "$QUERY")
ROWS_IN=$(sqlite3 "$DATA/pg-query.sqlite" "SELECT count(*) FROM transactions")
echo
echo "| ledger import ($ROWS_IN rows in the store) | wall | peak RSS |"
echo "|---|---|---|"
printf '| %-40s | %8s s | %5s MB |\n' "from the CSV file" "$FILE_S" "$FILE_MB"
printf '| %-40s | %8s s | %5s MB |\n' "from a PostgreSQL query (typed columns)" "$QUERY_S" "$QUERY_MB"
echo "  query vs file $(printf "%.2f" "$(echo "$QUERY_S / $FILE_S" | bc -l)") (target <= 1.5)"
