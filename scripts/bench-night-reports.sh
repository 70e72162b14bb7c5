#!/usr/bin/env bash
# `make bench-night-reports`: the night with Apple's Sales Reports in the store.
#
#   from scratch   a fresh store: the ROWS-row ledger, the catalog and Apple's Summary Sales Reports of its last
#                  REPORT_DAYS days (scripts/gen_sales_reports.py), imported and reported.
#   the night      NIGHT_ROWS new rows (`gen_ledger.py --night-of`) and the Sales Report of the day they complete
#                  (Pacific time) imported into that store, and the reports written again: its import + report against the from-scratch
#                  one. The report must build on the last one (run.json's detect stage says `incremental`), and
#                  (CHECK=1) write what a fresh store of the same inputs writes.
# Environment: ROWS (default 200000), IDS (uuid), BIN, NIGHT_ROWS (2000), REPORT_DAYS (30), CHECK (1).
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-200000}
IDS=${IDS:-uuid}
BIN=${BIN:-./.build/release/iap-recon}
DATA=${DATA:-bench-data}
NIGHT_ROWS=${NIGHT_ROWS:-2000}
REPORT_DAYS=${REPORT_DAYS:-30}
CHECK=${CHECK:-1}
mkdir -p "$DATA"
source scripts/bench-lib.sh
GEN=scripts/gen_ledger.py

CSV=$(ensure_ledger "$ROWS" "$IDS")
PRODUCTS="$DATA/products.csv"
W="$DATA/night-reports-$IDS-$ROWS"
rm -rf "$W"
mkdir -p "$W"
NIGHT="$W/night.csv"
python3 "$GEN" "$NIGHT_ROWS" "$NIGHT" --night-of "$CSV" --seed 1
BASE_END=$(python3 "$GEN" --day-end-of "$CSV")
NIGHT_END=$(python3 "$GEN" --day-end-of "$NIGHT")
# Apple's reports of the days (Pacific time) that ended by each report's as-of: the night completes one more.
mapfile -t REPORTS < <(python3 scripts/gen_sales_reports.py "$W/reports" "$CSV" --ended-by "$BASE_END" \
    --days "$REPORT_DAYS")
mapfile -t NIGHT_REPORT < <(python3 scripts/gen_sales_reports.py "$W/night-report" "$CSV" "$NIGHT" \
    --ended-by "$NIGHT_END" --days 1)
sales_args() { local f; for f in "$@"; do printf -- '--sales-report\n%s\n' "$f"; done; }
mapfile -t BASE_SALES < <(sales_args "${REPORTS[@]}")
mapfile -t NIGHT_SALES < <(sales_args "${NIGHT_REPORT[@]}")

STORE="$W/store.sqlite"
measure_run "$BIN" import --db "$STORE" --transactions "$CSV" --products "$PRODUCTS" "${BASE_SALES[@]}"
SCRATCH_I=$M_WALL
measure_run "$BIN" report --db "$STORE" --out "$W/report-scratch" --as-of "$BASE_END"
SCRATCH_R=$M_WALL
measure_run "$BIN" import --db "$STORE" --transactions "$NIGHT" --products "$PRODUCTS" "${NIGHT_SALES[@]}"
NIGHT_I=$M_WALL
measure_run "$BIN" report --db "$STORE" --out "$W/report-night" --as-of "$NIGHT_END"
NIGHT_R=$M_WALL
INCREMENTAL=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print([s for s in r['stages'] if s['name']=='detect'][0]['counts'].get('incremental', 0))" "$W/report-night/run.json")
SCRATCH=$(sum "$SCRATCH_I" "$SCRATCH_R")
NIGHT_T=$(sum "$NIGHT_I" "$NIGHT_R")
echo "night with Apple's Sales Reports ($ROWS rows, ${#REPORTS[@]} report days; $NIGHT_ROWS new rows and the report of the day they complete)"
echo "  from scratch: import $SCRATCH_I s + report $SCRATCH_R s = $SCRATCH s"
echo "  the night:    import $NIGHT_I s + report $NIGHT_R s = $NIGHT_T s, $(ratio "$NIGHT_T" "$SCRATCH") x from scratch (incremental: $INCREMENTAL)"
[ "$INCREMENTAL" = 1 ] || { echo "  the night's report judged everything"; exit 1; }
if [ "$CHECK" = 1 ]; then
    FRESH="$W/fresh.sqlite"
    "$BIN" import --db "$FRESH" --transactions "$CSV" --transactions "$NIGHT" --products "$PRODUCTS" \
        "${BASE_SALES[@]}" "${NIGHT_SALES[@]}" >/dev/null 2>>"$DATA/bench.log"
    "$BIN" report --db "$FRESH" --out "$W/report-fresh" --as-of "$NIGHT_END" >/dev/null 2>>"$DATA/bench.log" || [ $? = 3 ]
    if compare_reports "$W/report-night" "$W/report-fresh" >"$W/check.txt"; then
        echo "  check: the night's reports are a fresh store's"
    else
        echo "  check: the night's reports differ from a fresh store's:"
        cat "$W/check.txt"
        exit 1
    fi
fi
