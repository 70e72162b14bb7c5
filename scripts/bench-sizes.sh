#!/usr/bin/env bash
# `make bench-sizes`: the nightly job's core from scratch at several ledger sizes, beside DuckDB on the same
# file in the same run: per size, DuckDB (bench_reference.py: read, parse, duplicates, shared, undelivered,
# daily revenue, CSV out), then iap-recon import into a fresh store + report (CSV + XLSX). Prints per size
# the wall times, import + report vs DuckDB (target <= 2.0, stretch <= 1.0), the cost per row of import +
# report, peak RSS (target <= 300 MB), and each size's cost per row against the first size's (target:
# flat within 25 %).
# Environment: SIZES (default "1000000 10000000"; the 10,000,000-row file takes 2.3 GB), IDS (uuid | numeric),
# BIN, REPEAT (1: each size measured so many times, figures printed as min–max), SKIP_REFERENCES=1 (no DuckDB).
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${SIZES:-1000000 10000000}
IDS=${IDS:-uuid}
BIN=${BIN:-./.build/release/iap-recon}
DATA=${DATA:-bench-data}
REPEAT=${REPEAT:-1}
AS_OF=2026-12-01T00:00:00Z
AS_OF_MS=1796083200000
mkdir -p "$DATA"
source scripts/bench-lib.sh
REFERENCES=1
[ "${SKIP_REFERENCES:-0}" = 1 ] && REFERENCES=0
[ "$REFERENCES" = 1 ] && ensure_venv
PRODUCTS="$DATA/products.csv"
DB="$DATA/sizes.sqlite"

declare -A PER_ROW
FIRST=""
row() { printf '| %10s | %13s | %13s | %13s | %15s | %9s | %11s | %9s |\n' "$@"; }
TABLE=$(mktemp)
for size in $SIZES; do
    CSV=$(ensure_ledger "$size" "$IDS")
    D=(); I=(); R=(); T=(); X=(); U=(); M=()
    for ((run = 1; run <= REPEAT; run++)); do
        if [ "$REFERENCES" = 1 ]; then
            measure_run "$VENV/bin/python" scripts/bench_reference.py duckdb "$CSV" "$DATA/duckdb-out" "$AS_OF_MS"
            D+=("$M_WALL")
        fi
        remove_store "$DB"
        measure_run "$BIN" import --db "$DB" --transactions "$CSV" --products "$PRODUCTS"
        I+=("$M_WALL"); rss=$M_RSS
        measure_run "$BIN" report --db "$DB" --out "$DATA/sizes-report" --as-of "$AS_OF"
        R+=("$M_WALL"); M+=("$(( rss > M_RSS ? rss : M_RSS ))")
        T+=("$(sum "${I[-1]}" "${R[-1]}")")
        U+=("$(echo "${T[-1]} * 1000000 / $size" | bc -l)")
        [ "$REFERENCES" = 1 ] && X+=("$(ratio "${T[-1]}" "${D[-1]}")")
        remove_store "$DB"
    done
    PER_ROW[$size]=$(printf '%s\n' "${U[@]}" | sort -g | sed -n "$(( (REPEAT + 1) / 2 ))p")  # the middle run
    [ -n "$FIRST" ] || FIRST=$size
    duck="–"; vs="–"
    if [ "$REFERENCES" = 1 ]; then duck="$(span "${D[@]}") s"; vs=$(span "${X[@]}"); fi
    row "$size" "$duck" "$(span "${I[@]}") s" "$(span "${R[@]}") s" "$(span "${T[@]}") s" "$vs" "$(span "${U[@]}")" \
        "$(SPAN_DECIMALS=0 span "${M[@]}") MB" >> "$TABLE"
done

echo "== iap-recon from scratch (import + report) beside DuckDB, by ledger size ($IDS record ids, $REPEAT run(s)) =="
echo "| rows | DuckDB | import | report | import + report | vs DuckDB | µs/row | peak RSS |"
echo "|---|---|---|---|---|---|---|---|"
cat "$TABLE"; rm -f "$TABLE"
echo
echo "targets: import + report vs DuckDB <= 2.0 (stretch <= 1.0); peak RSS <= 300 MB"
for size in $SIZES; do
    [ "$size" = "$FIRST" ] && continue
    echo "  cost per row at $size vs at $FIRST $(ratio "${PER_ROW[$size]}" "${PER_ROW[$FIRST]}")" \
         "(middle runs; target: flat within 25 %, 0.75–1.25)"
done
