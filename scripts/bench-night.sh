#!/usr/bin/env bash
# `make bench-night` (and the end of `make bench`): what a nightly run costs against what the night changed.
#
#   the night      a store built from scratch from the ROWS-row ledger (import + report: the from-scratch
#                  figure), then a night's NIGHT_ROWS new rows (the purchases of the next day, written by
#                  `gen_ledger.py --night-of`) imported into it and the reports written again; the night's
#                  import + report against the from-scratch one (target <= 0.05).
#   the re-export  the whole ledger exported again, REEXPORT_CHANGED rows changed in place and REEXPORT_NEW
#                  appended (`gen_ledger.py --reexport-of`), imported from the same path into a copy of the
#                  from-scratch store taken before the night, and reported (target <= 0.15); then the same
#                  re-export under a dated name of its own (`ledger-<day>.csv`, as backends often name it) into
#                  another copy, and reported: it must cost what the same path costs, and say the same.
#   store growth   a ROWS_GROWTH-row ledger, then GROWTH_NIGHTS nights of GROWTH_NIGHT_ROWS rows, each imported
#                  and reported: the store's size after the first run and after the last, against the size
#                  of a store built from scratch on the ledger and all the nights (target <= 1.1).
#
# Every run of iap-recon gets a fresh or copied store as described; nothing is forced: the engine decides
# by itself how much of a report it redoes. The nightly import passes --products as a cron job would.
# Environment: ROWS (default 1000000), IDS (uuid | numeric), BIN, NIGHT_ROWS (10000), REEXPORT_CHANGED
# (5000), REEXPORT_NEW (5000), REPEAT (1: each run repeated, figures printed as min–max), CHECK (1: once,
# the night's reports compared with a fresh store's reports on the ledger and the night; 0 skips it),
# SKIP_GROWTH=1, ROWS_GROWTH (200000), GROWTH_NIGHTS (30), GROWTH_NIGHT_ROWS (1000).
# It also prints the night's floor: the night's workbook's streamed sheets written again, from their cells, by
# libxlsxwriter alone (scripts/xlsx_floor.c), against from scratch.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-1000000}
IDS=${IDS:-uuid}
BIN=${BIN:-./.build/release/iap-recon}
DATA=${DATA:-bench-data}
NIGHT_ROWS=${NIGHT_ROWS:-10000}
REEXPORT_CHANGED=${REEXPORT_CHANGED:-5000}
REEXPORT_NEW=${REEXPORT_NEW:-5000}
REPEAT=${REPEAT:-1}
CHECK=${CHECK:-1}
ROWS_GROWTH=${ROWS_GROWTH:-200000}
GROWTH_NIGHTS=${GROWTH_NIGHTS:-30}
GROWTH_NIGHT_ROWS=${GROWTH_NIGHT_ROWS:-1000}
mkdir -p "$DATA"
source scripts/bench-lib.sh
GEN=scripts/gen_ledger.py

CSV=$(ensure_ledger "$ROWS" "$IDS")
PRODUCTS="$DATA/products.csv"
W="$DATA/night-$IDS-$ROWS"
mkdir -p "$W/export"
NIGHT="$W/night-$NIGHT_ROWS.csv"
REEXPORT="$W/reexport-$REEXPORT_CHANGED-$REEXPORT_NEW.csv"
# generate OUT ROWS ARGS...: gen_ledger.py's output, kept for the next run (written under a temporary name first).
generate() {
    local out=$1 rows=$2; shift 2
    [ -f "$out" ] && return
    python3 "$GEN" "$rows" "$out.tmp" "$@" 2>"$out.about"
    [ -s "$out.about" ] || rm -f "$out.about"
    mv "$out.tmp" "$out"
}
generate "$NIGHT" "$NIGHT_ROWS" --night-of "$CSV" --seed 1
generate "$REEXPORT" "$REEXPORT_NEW" --reexport-of "$CSV" --changed "$REEXPORT_CHANGED" --seed 1
BASE_END=$(python3 "$GEN" --day-end-of "$CSV")
NIGHT_END=$(python3 "$GEN" --day-end-of "$NIGHT")
REEXPORT_END=$(python3 "$GEN" --day-end-of "$REEXPORT")
# The backend writes its export to one path every night; the store knows a file by its path, so the
# ledger and its re-export are both imported as $EXPORT (a link to one, then the other).
EXPORT="$W/export/ledger.csv"
export_is() { ln -sfn "$(realpath "$1")" "$EXPORT"; }

STORE="$W/store.sqlite"
BEFORE="$W/before-night.sqlite"
RESTORE="$W/reexport.sqlite"
RENAMED="$W/reexport-renamed.sqlite"
# The re-export under another name: a dated file next to the export's usual path.
DATED="$W/export/ledger-${REEXPORT_END%%T*}.csv"
declare -a SCRATCH_I SCRATCH_R SCRATCH_T SCRATCH_M NIGHT_I NIGHT_R NIGHT_T NIGHT_M RE_I RE_R RE_T RE_M NIGHT_X RE_X
declare -a NAMED_I NAMED_R NAMED_T NAMED_M NAMED_X
max() { echo $(( $1 > $2 ? $1 : $2 )); }
# import_and_report NAME STORE LEDGER OUT AS_OF: imports LEDGER into STORE and writes its reports into OUT;
# appends the import's and the report's wall times, their sum and the peak RSS of both to NAME_I, NAME_R, NAME_T
# and NAME_M.
import_and_report() {
    local -n imported=$1_I reported=$1_R total=$1_T peak=$1_M
    local rss
    measure_run "$BIN" import --db "$2" --transactions "$3" --products "$PRODUCTS"
    imported+=("$M_WALL"); rss=$M_RSS
    measure_run "$BIN" report --db "$2" --out "$4" --as-of "$5"
    reported+=("$M_WALL"); peak+=("$(max "$rss" "$M_RSS")")
    total+=("$(sum "${imported[-1]}" "${reported[-1]}")")
}
for ((run = 1; run <= REPEAT; run++)); do
    # From scratch: a fresh store, the ledger, the reports.
    remove_store "$STORE"
    rm -rf "$W/report-scratch" "$W/report-night" "$W/report-reexport"
    export_is "$CSV"
    import_and_report SCRATCH "$STORE" "$EXPORT" "$W/report-scratch" "$BASE_END"
    scratch=${SCRATCH_T[-1]}
    copy_store "$STORE" "$BEFORE"

    # The night: its new rows into that store, the reports.
    import_and_report NIGHT "$STORE" "$NIGHT" "$W/report-night" "$NIGHT_END"
    NIGHT_X+=("$(ratio "${NIGHT_T[-1]}" "$scratch")")

    # The re-export: the whole ledger again, from the same path, into the store as it was before the night.
    copy_store "$BEFORE" "$RESTORE"
    export_is "$REEXPORT"
    import_and_report RE "$RESTORE" "$EXPORT" "$W/report-reexport" "$REEXPORT_END"
    RE_X+=("$(ratio "${RE_T[-1]}" "$scratch")")
    export_is "$CSV"

    # The same re-export under a name of its own, into another copy of the store before the night.
    copy_store "$BEFORE" "$RENAMED"
    rm -rf "$W/report-renamed"
    ln -sfn "$(realpath "$REEXPORT")" "$DATED"
    import_and_report NAMED "$RENAMED" "$DATED" "$W/report-renamed" "$REEXPORT_END"
    NAMED_X+=("$(ratio "${NAMED_T[-1]}" "$scratch")")
done
SIZE_BEFORE=$(store_bytes "$BEFORE")
SIZE_NIGHT=$(store_bytes "$STORE")
SIZE_RE=$(store_bytes "$RESTORE")
free_mb() { mb "$(sqlite3 -readonly "$1" "PRAGMA freelist_count" "PRAGMA page_size" | paste -sd '*' | bc)"; }
FREE_NIGHT=$(free_mb "$STORE")
FREE_RE=$(free_mb "$RESTORE")
remove_store "$BEFORE"
remove_store "$RESTORE"
remove_store "$RENAMED"

row() { printf '| %-58s | %11s s | %11s s | %15s s | %9s MB |\n' "$@"; }
echo "== the night and the re-export: a $ROWS-row store ($IDS record ids), $REPEAT run(s) =="
echo "the night: $NIGHT_ROWS new rows, purchases up to $NIGHT_END ($NIGHT)"
echo "the re-export: $(sed 's/^[^:]*: //' "$REEXPORT.about") ($REEXPORT)"
echo "each run: the ledger into a fresh store and its reports (as-of $BASE_END); then the night into that"
echo "store (as-of $NIGHT_END); then the re-export into a copy of the store taken before the night (as-of $REEXPORT_END)"
echo
echo "| run | import | report | import + report | peak RSS |"
echo "|---|---|---|---|---|"
row "from scratch: fresh store, the ledger" "$(span "${SCRATCH_I[@]}")" "$(span "${SCRATCH_R[@]}")" \
    "$(span "${SCRATCH_T[@]}")" "$(SPAN_DECIMALS=0 span "${SCRATCH_M[@]}")"
row "the night: $NIGHT_ROWS new rows into that store" "$(span "${NIGHT_I[@]}")" "$(span "${NIGHT_R[@]}")" \
    "$(span "${NIGHT_T[@]}")" "$(SPAN_DECIMALS=0 span "${NIGHT_M[@]}")"
row "the re-export into the store before the night" "$(span "${RE_I[@]}")" "$(span "${RE_R[@]}")" \
    "$(span "${RE_T[@]}")" "$(SPAN_DECIMALS=0 span "${RE_M[@]}")"
row "the re-export under another name, likewise" "$(span "${NAMED_I[@]}")" "$(span "${NAMED_R[@]}")" \
    "$(span "${NAMED_T[@]}")" "$(SPAN_DECIMALS=0 span "${NAMED_M[@]}")"
echo
echo "ratios (each run against its own from-scratch import + report):"
echo "  the night's import + report vs from scratch $(span "${NIGHT_X[@]}") (target <= 0.05)"
echo "  the re-export's import + report vs from scratch $(span "${RE_X[@]}") (target <= 0.15)"
echo "  the re-export under another name vs from scratch $(span "${NAMED_X[@]}") (the same path's cost)"
echo "  store size (file + WAL, last run): $(mb "$SIZE_BEFORE") MB from scratch, $(mb "$SIZE_NIGHT") MB after the night" \
     "($FREE_NIGHT MB of it free pages), $(mb "$SIZE_RE") MB after the re-export ($FREE_RE MB free)"
# The least the night's files can take: the workbook's streamed sheets (every open finding, every pending row)
# written again from their cells by libxlsxwriter alone, against the last run's from-scratch import + report.
declare -a FLOOR_T
for ((run = 1; run <= REPEAT; run++)); do
    xlsx_floor "$W/report-night/reconciliation.xlsx" Discrepancies Pending
    [ -n "$M_WALL" ] && FLOOR_T+=("$M_WALL")
done
if [ ${#FLOOR_T[@]} -gt 0 ]; then
    echo "  the night's workbook, its Discrepancies and Pending sheets written again by libxlsxwriter alone:" \
         "$(span "${FLOOR_T[@]}") s, $(ratio "${FLOOR_T[0]}" "${SCRATCH_T[-1]}") x from scratch (the least the" \
         "night's report can take with every open finding in its files, its import and every other step aside)"
fi

# The reports after the night and after the re-export: the full set of files, saying what a fresh store's would.
status=0
for dir in report-night report-reexport report-renamed; do
    if ! diff <(cd "$W/report-scratch" && find . -type f | sort) <(cd "$W/$dir" && find . -type f | sort) >/dev/null; then
        echo "  $W/$dir: not the files a from-scratch report writes:"
        diff <(cd "$W/report-scratch" && find . -type f | sort) <(cd "$W/$dir" && find . -type f | sort) || true
        status=1
    fi
done
if [ "$CHECK" = 1 ]; then
    CHECKDB="$W/check.sqlite"
    remove_store "$CHECKDB"; rm -rf "$W/check-night" "$W/check-reexport"
    export_is "$CSV"
    "$BIN" import --db "$CHECKDB" --transactions "$EXPORT" --transactions "$NIGHT" --products "$PRODUCTS" \
        >/dev/null 2>>"$DATA/bench.log"
    "$BIN" report --db "$CHECKDB" --out "$W/check-night" --as-of "$NIGHT_END" >/dev/null 2>>"$DATA/bench.log" || [ $? = 3 ]
    remove_store "$CHECKDB"
    export_is "$REEXPORT"
    "$BIN" import --db "$CHECKDB" --transactions "$EXPORT" --products "$PRODUCTS" >/dev/null 2>>"$DATA/bench.log"
    "$BIN" report --db "$CHECKDB" --out "$W/check-reexport" --as-of "$REEXPORT_END" >/dev/null 2>>"$DATA/bench.log" \
        || [ $? = 3 ]
    export_is "$CSV"
    remove_store "$CHECKDB"
    for step in night reexport; do
        name=$([ "$step" = night ] && echo "night" || echo "re-export")
        if compare_reports "$W/report-$step" "$W/check-$step" >"$W/check-$step.txt"; then
            echo "  the $name's CSV reports are those of a fresh store given the same rows (but for detected_at)"
        else
            echo "  the $name's CSV reports differ from a fresh store's given the same rows:"
            cat "$W/check-$step.txt"
            status=1
        fi
    done
    if compare_reports "$W/report-renamed" "$W/check-reexport" >"$W/check-renamed.txt"; then
        echo "  the re-export under another name: its CSV reports are those of a fresh store given the same rows (but for detected_at)"
    else
        echo "  the re-export under another name: its CSV reports differ from a fresh store's given the same rows:"
        cat "$W/check-renamed.txt"
        status=1
    fi
fi

# Store growth: a smaller ledger, then GROWTH_NIGHTS nights of GROWTH_NIGHT_ROWS rows, each imported and reported.
if [ "${SKIP_GROWTH:-0}" != 1 ]; then
    GCSV=$(ensure_ledger "$ROWS_GROWTH" "$IDS")
    G="$DATA/growth-$IDS-$ROWS_GROWTH"
    mkdir -p "$G"
    NIGHTS=()
    for ((k = 1; k <= GROWTH_NIGHTS; k++)); do
        f="$G/night-$GROWTH_NIGHT_ROWS-$(printf %02d "$k").csv"
        generate "$f" "$GROWTH_NIGHT_ROWS" --night-of "$GCSV" "${NIGHTS[@]}" --seed "$k"
        NIGHTS+=("$f")
    done
    GS="$G/store.sqlite"
    remove_store "$GS"
    measure_run "$BIN" import --db "$GS" --transactions "$GCSV" --products "$PRODUCTS"
    first_i=$M_WALL
    measure_run "$BIN" report --db "$GS" --out "$G/report" --as-of "$(python3 "$GEN" --day-end-of "$GCSV")"
    FIRST_T=$(sum "$first_i" "$M_WALL")
    FIRST_B=$(store_bytes "$GS")
    GROWTH_T=(); GROWTH_M=()
    for f in "${NIGHTS[@]}"; do
        measure_run "$BIN" import --db "$GS" --transactions "$f" --products "$PRODUCTS"
        t=$M_WALL; m=$M_RSS
        measure_run "$BIN" report --db "$GS" --out "$G/report" --as-of "$(python3 "$GEN" --day-end-of "$f")"
        GROWTH_T+=("$(sum "$t" "$M_WALL")"); GROWTH_M+=("$(max "$m" "$M_RSS")")
    done
    AFTER_B=$(store_bytes "$GS")
    read -r FREE PAGE < <(sqlite3 -readonly "$GS" "PRAGMA freelist_count" "PRAGMA page_size" | paste -sd ' ')
    # A store built from scratch on the ledger and every night: what the nights' rows take in a store.
    GA="$G/scratch-all.sqlite"
    remove_store "$GA"
    TX=(); for f in "$GCSV" "${NIGHTS[@]}"; do TX+=(--transactions "$f"); done
    measure_run "$BIN" import --db "$GA" "${TX[@]}" --products "$PRODUCTS"
    all_i=$M_WALL
    measure_run "$BIN" report --db "$GA" --out "$G/report-all" --as-of "$(python3 "$GEN" --day-end-of "${NIGHTS[-1]}")"
    ALL_T=$(sum "$all_i" "$M_WALL")
    ALL_B=$(store_bytes "$GA")
    ADDED_B=$(( ALL_B - FIRST_B ))
    remove_store "$GA"

    echo
    echo "== store growth: a $ROWS_GROWTH-row ledger, then $GROWTH_NIGHTS nights of $GROWTH_NIGHT_ROWS rows, each imported and reported =="
    echo "| store | size (file + WAL) | import + report |"
    echo "|---|---|---|"
    printf '| %-62s | %10s MB | %15s s |\n' \
        "after the first run: the ledger into a fresh store" "$(mb "$FIRST_B")" "$FIRST_T" \
        "after the $GROWTH_NIGHTS nightly runs (each; $(( FREE * PAGE / 1024 )) KB of free pages)" "$(mb "$AFTER_B")" \
            "$(span "${GROWTH_T[@]}")" \
        "fresh store: the ledger and all the nights at once" "$(mb "$ALL_B")" "$ALL_T"
    echo "  the nights' rows take $(mb "$ADDED_B") MB (a fresh store on the ledger and all the nights, less one" \
         "on the ledger alone: the first run's)"
    echo "  size after $GROWTH_NIGHTS nights / (after the first run + what the nights added)" \
         "$(printf "%.3f" "$(echo "$AFTER_B / ($FIRST_B + $ADDED_B)" | bc -l)") (target <= 1.1)"
    echo "  a nightly run: first $(printf "%.2f" "${GROWTH_T[0]}") s, last $(printf "%.2f" "${GROWTH_T[-1]}") s;" \
         "the last vs the first run from scratch $(ratio "${GROWTH_T[-1]}" "$FIRST_T");" \
         "peak RSS $(SPAN_DECIMALS=0 span "${GROWTH_M[@]}") MB"
fi
exit "$status"
