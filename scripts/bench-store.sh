#!/usr/bin/env bash
# `make bench`, the store part: the same work with the store in PostgreSQL and in SQLite.
#
#   from scratch   the ROWS-row ledger imported into an empty store and reported (CSV + XLSX);
#   the night      NIGHT_ROWS new rows (the next day's purchases, `gen_ledger.py --night-of`) imported into that
#                  store and reported again.
#
# PostgreSQL is a throwaway cluster on loopback (initdb into a temporary folder, password auth, fsync off as in
# the tests), stopped at the end. Prints wall time and peak RSS of each command on each store, PostgreSQL against
# SQLite (target <= 2.0), and checks that both stores wrote the same CSV reports, byte for byte.
# Environment: ROWS (default 1000000), IDS (uuid | numeric), BIN, DATA (default bench-data), NIGHT_ROWS (10000).
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-1000000}
IDS=${IDS:-uuid}
BIN=${BIN:-./.build/release/iap-recon}
DATA=${DATA:-bench-data}
NIGHT_ROWS=${NIGHT_ROWS:-10000}
mkdir -p "$DATA"
source scripts/bench-lib.sh
if ! start_throwaway_postgres bench-store; then
    echo "the store in PostgreSQL skipped: no server programs (apt-get install postgresql)"
    exit 0
fi
CSV=$(ensure_ledger "$ROWS" "$IDS")
PRODUCTS="$DATA/products.csv"
W="$DATA/store-$IDS-$ROWS"
mkdir -p "$W"
NIGHT="$W/night-$NIGHT_ROWS.csv"
[ -f "$NIGHT" ] || python3 scripts/gen_ledger.py "$NIGHT_ROWS" "$NIGHT" --night-of "$CSV" --seed 1 2>/dev/null
BASE_END=$(python3 scripts/gen_ledger.py --day-end-of "$CSV")
NIGHT_END=$(python3 scripts/gen_ledger.py --day-end-of "$NIGHT")

export PGPASSWORD=$PASSWORD
PG="postgresql://recon@127.0.0.1:$PORT/postgres?sslmode=disable"
SQLITE="$W/store.sqlite"
remove_store "$SQLITE"

declare -A WALL RSS
for store in sqlite postgres; do
    db=$SQLITE
    [ "$store" = postgres ] && db=$PG
    measure_run "$BIN" import --db "$db" --transactions "$CSV" --products "$PRODUCTS"
    WALL[$store-import]=$M_WALL; RSS[$store-import]=$M_RSS
    measure_run "$BIN" report --db "$db" --out "$W/$store-scratch" --as-of "$BASE_END"
    WALL[$store-report]=$M_WALL; RSS[$store-report]=$M_RSS
    measure_run "$BIN" import --db "$db" --transactions "$NIGHT" --products "$PRODUCTS"
    WALL[$store-night-import]=$M_WALL; RSS[$store-night-import]=$M_RSS
    measure_run "$BIN" report --db "$db" --out "$W/$store-night" --as-of "$NIGHT_END"
    WALL[$store-night-report]=$M_WALL; RSS[$store-night-report]=$M_RSS
done

row() { printf '| %-34s | %9s s | %7s MB | %9s s | %7s MB | %6s |\n' "$@"; }
echo "| $ROWS rows, night of $NIGHT_ROWS | SQLite | peak RSS | PostgreSQL | peak RSS | ratio |"
echo "|---|---|---|---|---|---|"
for step in import report night-import night-report; do
    row "$step" "${WALL[sqlite-$step]}" "${RSS[sqlite-$step]}" "${WALL[postgres-$step]}" "${RSS[postgres-$step]}" \
        "$(ratio "${WALL[postgres-$step]}" "${WALL[sqlite-$step]}")"
done
SCRATCH_S=$(sum "${WALL[sqlite-import]}" "${WALL[sqlite-report]}")
SCRATCH_P=$(sum "${WALL[postgres-import]}" "${WALL[postgres-report]}")
NIGHT_S=$(sum "${WALL[sqlite-night-import]}" "${WALL[sqlite-night-report]}")
NIGHT_P=$(sum "${WALL[postgres-night-import]}" "${WALL[postgres-night-report]}")
echo
echo "  import + report from scratch: PostgreSQL vs SQLite $(ratio "$SCRATCH_P" "$SCRATCH_S") (target <= 2.0)"
echo "  the night: PostgreSQL vs SQLite $(ratio "$NIGHT_P" "$NIGHT_S") (target <= 2.0)"
same=1
for phase in scratch night; do
    for file in "$W/sqlite-$phase"/*.csv; do
        if ! cmp -s "$file" "$W/postgres-$phase/$(basename "$file")"; then
            echo "  DIFFERENT: $phase $(basename "$file")"
            same=0
        fi
    done
done
[ "$same" = 1 ] && echo "  every CSV report the same on both stores, byte for byte"
