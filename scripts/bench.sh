#!/usr/bin/env bash
# `make bench`: the nightly job's core on a ledger shaped like a real export, side by side with
# three references measured in the same run on the same file:
#   - the sqlite3 shell loading it into an indexed table, then the same queries (CSV out);
#   - pandas + XlsxWriter (CSV and XLSX out), in a throw-away virtual environment;
#   - DuckDB (CSV out), in the same environment.
# The references are skipped with a message when the package registry cannot be reached.
# Environment: ROWS (default 1000000), IDS (uuid | numeric, default uuid), SKIP_SWIFT_FIGURES=1,
# SKIP_REFERENCES=1 (iap-recon alone: `make bench-memory` checks peak RSS at 10,000,000 rows so),
# SKIP_POSTGRES=1 (no import from a throwaway PostgreSQL server: scripts/bench-postgres.sh),
# SKIP_NIGHT=1 (no night, re-export and store growth: scripts/bench-night.sh, which takes its own settings),
# SKIP_STORE=1 (no store in PostgreSQL beside SQLite: scripts/bench-store.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-1000000}
IDS=${IDS:-uuid}
BIN=${BIN:-./.build/release/iap-recon}
DATA=bench-data
source scripts/bench-lib.sh
AS_OF=2026-12-01T00:00:00Z
AS_OF_MS=1796083200000
mkdir -p "$DATA"
CSV="$DATA/ledger-$IDS-$ROWS.csv"
PRODUCTS="$DATA/products.csv"
[ -f "$CSV" ] || python3 scripts/gen_ledger.py "$ROWS" "$CSV" --ids "$IDS" --products "$PRODUCTS"
[ -f "$PRODUCTS" ] || python3 scripts/gen_ledger.py 1 /dev/null --products "$PRODUCTS"
echo "input: $CSV ($(du -h "$CSV" | cut -f1), $ROWS rows, $IDS record ids, ISO 8601 times with offsets)"
echo

declare -A WALL RSS
measure() {  # key, command...
    local key=$1; shift
    measure_run "$@"
    WALL[$key]=$M_WALL
    RSS[$key]=$M_RSS
}

rm -f "$DATA"/*.sqlite* "$DATA"/baseline-*.csv
REFERENCES=1
[ "${SKIP_REFERENCES:-0}" = 1 ] && REFERENCES=0
SHELL_REFERENCE=$REFERENCES

# sqlite3 shell: import into an indexed table, then duplicates, shared, undelivered and daily revenue.
SCHEMA="CREATE TABLE t (record_id TEXT PRIMARY KEY, user_id TEXT, product_id TEXT, transaction_id TEXT,
original_transaction_id TEXT, purchase_date TEXT, quantity TEXT, environment TEXT, price TEXT, currency TEXT,
storefront TEXT, verification_status TEXT, delivered_at TEXT, finished_at TEXT, receipt_id TEXT) WITHOUT ROWID;
CREATE INDEX t1 ON t(transaction_id); CREATE INDEX t2 ON t(original_transaction_id); CREATE INDEX t3 ON t(user_id);"
cat > "$DATA/baseline.sql" <<SQL
PRAGMA journal_mode=WAL;
PRAGMA synchronous=NORMAL;
.mode csv
.import --skip 1 $CSV t
.headers on
.once $DATA/baseline-discrepancies.csv
WITH counted AS (SELECT * FROM t WHERE environment = 'Production' AND verification_status <> 'invalid')
SELECT 'DUPLICATE_RECORD' AS code, transaction_id, user_id FROM counted
  WHERE transaction_id IN (SELECT transaction_id FROM counted GROUP BY 1 HAVING COUNT(*) > 1)
UNION ALL SELECT 'SHARED_TRANSACTION', transaction_id, user_id FROM counted
  WHERE transaction_id IN (SELECT transaction_id FROM counted GROUP BY 1 HAVING COUNT(DISTINCT user_id) > 1)
UNION ALL SELECT 'UNDELIVERED', transaction_id, user_id FROM t
  WHERE verification_status = 'verified' AND delivered_at = ''
    AND julianday(purchase_date) < julianday('$AS_OF') - 1.0 / 24
ORDER BY 1, 2, 3;
.once $DATA/baseline-revenue.csv
WITH counted AS (SELECT * FROM t WHERE environment = 'Production' AND verification_status <> 'invalid'),
first AS (SELECT *, row_number() OVER (PARTITION BY transaction_id ORDER BY julianday(purchase_date), record_id) AS n
          FROM counted)
SELECT strftime('%Y-%m-%d', purchase_date) AS date, product_id, currency, SUM(quantity) AS units,
       SUM(CAST(price AS REAL) * quantity) AS gross
FROM first WHERE n = 1 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
SQL
if [ "$REFERENCES" = 1 ]; then
    sqlite3 "$DATA/baseline.sqlite" "$SCHEMA"
    measure sqlite sqlite3 "$DATA/baseline.sqlite" ".read $DATA/baseline.sql"
fi

# pandas + XlsxWriter and DuckDB, in a throw-away virtual environment.
if [ "$REFERENCES" = 1 ]; then
    ensure_venv
fi
if [ "$REFERENCES" = 1 ]; then
    measure pandas "$VENV/bin/python" scripts/bench_reference.py pandas "$CSV" "$DATA/pandas-out" "$AS_OF_MS"
    measure duckdb "$VENV/bin/python" scripts/bench_reference.py duckdb "$CSV" "$DATA/duckdb-out" "$AS_OF_MS"
fi

# iap-recon: import into a fresh store, report (CSV + XLSX), re-import the unchanged file.
DB="$DATA/recon.sqlite"
measure import "$BIN" import --db "$DB" --transactions "$CSV" --products "$PRODUCTS"
measure report "$BIN" report --db "$DB" --out "$DATA/report" --as-of "$AS_OF"
measure reimport "$BIN" import --db "$DB" --transactions "$CSV" --products "$PRODUCTS"
WALL[ours]=$(sum "${WALL[import]}" "${WALL[report]}")
RSS[ours]=$(( RSS[import] > RSS[report] ? RSS[import] : RSS[report] ))

row() { printf '| %-36s | %-52s | %8s s | %7s MB |\n' "$1" "$2" "$3" "$4"; }
echo "| system | work | wall | peak RSS |"
echo "|---|---|---|---|"
if [ "$SHELL_REFERENCE" = 1 ]; then
    row "sqlite3 shell, indexed table" "import + dup/shared/undelivered + daily revenue" "${WALL[sqlite]}" "${RSS[sqlite]}"
fi
if [ "$REFERENCES" = 1 ]; then
    row "pandas + XlsxWriter" "the same + CSV and XLSX" "${WALL[pandas]}" "${RSS[pandas]}"
    row "DuckDB" "the same, CSV out" "${WALL[duckdb]}" "${RSS[duckdb]}"
fi
row "iap-recon import" "fresh store, products + ledger" "${WALL[import]}" "${RSS[import]}"
row "iap-recon report" "17 detectors + revenue, CSV + XLSX" "${WALL[report]}" "${RSS[report]}"
row "iap-recon import + report" "the nightly job without Apple" "${WALL[ours]}" "${RSS[ours]}"
row "iap-recon re-import" "the same file again, unchanged" "${WALL[reimport]}" "${RSS[reimport]}"
echo
echo "ratios (one run):"
if [ "$SHELL_REFERENCE" = 1 ]; then
    echo "  import + report vs sqlite3 shell $(ratio "${WALL[ours]}" "${WALL[sqlite]}")"
fi
if [ "$REFERENCES" = 1 ]; then
    echo "  import + report vs pandas $(ratio "${WALL[ours]}" "${WALL[pandas]}") (target <= 1.0)," \
         "vs DuckDB $(ratio "${WALL[ours]}" "${WALL[duckdb]}") (target <= 3.0, goal <= 1.5);" \
         "peak RSS vs pandas $(ratio "${RSS[ours]}" "${RSS[pandas]}") (target <= 0.33)"
fi
PEAK=$(( RSS[ours] > RSS[reimport] ? RSS[ours] : RSS[reimport] ))
echo "  re-import vs first import $(ratio "${WALL[reimport]}" "${WALL[import]}") (target <= 0.3);" \
     "peak RSS of import, report and re-import $PEAK MB at $ROWS rows (target <= 300)"
echo "  import + report per row $(printf "%.2f" "$(echo "${WALL[ours]} * 1000000 / $ROWS" | bc -l)") µs" \
     "at $ROWS rows (\`make bench-sizes\` compares 1,000,000 and 10,000,000)"

if [ "${SKIP_SWIFT_FIGURES:-0}" != 1 ]; then
    echo
    echo "== JWS verification and verify throughput =="
    ./.build/release/iap-recon-bench jws 200000
    ./.build/release/iap-recon-bench verify-stage 5000
fi

if [ "${SKIP_POSTGRES:-0}" != 1 ]; then
    echo
    echo "== the ledger from PostgreSQL vs from its CSV export =="
    CSV="$CSV" PRODUCTS="$PRODUCTS" BIN="$BIN" DATA="$DATA" ./scripts/bench-postgres.sh
fi

if [ "${SKIP_STORE:-0}" != 1 ]; then
    echo
    echo "== the store in PostgreSQL vs in SQLite =="
    ROWS="$ROWS" IDS="$IDS" BIN="$BIN" DATA="$DATA" ./scripts/bench-store.sh
fi

if [ "${SKIP_NIGHT:-0}" != 1 ]; then
    echo
    ROWS="$ROWS" IDS="$IDS" BIN="$BIN" ./scripts/bench-night.sh
fi
