#!/usr/bin/env bash
# `make bench-serve`: the support page under load, with the store in SQLite and in PostgreSQL, in one run. The same
# ROWS-row ledger (200,000) imported and reported into each; two `serve` processes over each store; CLIENTS (8)
# clients asking `/api/lookup` by user and by transaction id, one after another, for SECONDS_EACH (20) seconds per
# store. Prints lookups per second, p50 and p99, errors, and PostgreSQL's share of SQLite's (target >= 0.5).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-bench-data}
ROWS=${ROWS:-200000}
CLIENTS=${CLIENTS:-8}
SECONDS_EACH=${SECONDS_EACH:-20}
BIN=${BIN:-./.build/release/iap-recon}
BENCH=${BENCH:-./.build/release/iap-recon-bench}
mkdir -p "$DATA"
source scripts/bench-lib.sh
CSV=$(ensure_ledger "$ROWS" uuid)
PRODUCTS="$DATA/products.csv"
if ! start_throwaway_postgres bench-serve; then
    echo "serve on PostgreSQL skipped: no server programs (apt-get install postgresql)"
    exit 0
fi
PG="postgresql://recon:$PASSWORD@127.0.0.1:$PORT/postgres?sslmode=disable"
SQLITE="$DATA/serve-$ROWS.sqlite"
AS_OF=2026-12-01T00:00:00Z
remove_store "$SQLITE"
for db in "$SQLITE" "$PG"; do
    "$BIN" import --db "$db" --transactions "$CSV" --products "$PRODUCTS" >/dev/null 2>>"$DATA/bench.log"
    rm -rf "$DATA/serve-reports"
    "$BIN" report --db "$db" --as-of "$AS_OF" --out "$DATA/serve-reports" >/dev/null 2>>"$DATA/bench.log" || [ $? = 3 ]
done
# Support staff's questions: 500 users and 500 transaction ids of the ledger, taken evenly through it.
python3 - "$CSV" "$ROWS" > "$DATA/serve-queries.txt" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
step = max(1, len(rows) // 500)
for row in rows[::step][:500]:
    print("user=" + row["user_id"])
    print("transaction=" + row["transaction_id"])
PY

SERVERS=()
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
stop_servers() { for pid in "${SERVERS[@]}"; do kill "$pid" 2>/dev/null || true; done; SERVERS=(); }
trap 'stop_servers; stop_throwaway_postgres' EXIT
# serve_twice DB: two `serve` processes over the store; prints their URLs, comma-separated, once both answer.
serve_twice() {
    local urls=() port
    for _ in 1 2; do
        port=$(free_port)
        "$BIN" serve --db "$1" --host 127.0.0.1 --port "$port" >/dev/null 2>>"$DATA/bench.log" &
        SERVERS+=($!)
        urls+=("http://127.0.0.1:$port")
        for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
    done
    (IFS=,; echo "${urls[*]}")
}

echo "| serve, $CLIENTS clients on 2 processes, $ROWS rows | lookups/s | p50, p99, errors |"
echo "|---|---|---|"
declare -A PER_SECOND
for engine in sqlite postgresql; do
    db=$SQLITE
    [ "$engine" = postgresql ] && db=$PG
    urls=$(serve_twice "$db")
    line=$("$BENCH" lookups "$urls" "$DATA/serve-queries.txt" "$CLIENTS" "$SECONDS_EACH")
    stop_servers
    PER_SECOND[$engine]=${line%% *}
    printf '| %-10s | %s |\n' "$engine" "$line"
done
echo "  PostgreSQL / SQLite: $(ratio "${PER_SECOND[postgresql]}" "${PER_SECOND[sqlite]}") (target >= 0.5)"
