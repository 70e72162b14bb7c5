#!/usr/bin/env bash
# `make golden`: the reports of the realistic ROWS-row ledger (1,000,000) held to the hashes recorded before the
# judge's redesign for speed (scripts/golden/ledger-uuid-ROWS.sha256): every CSV of a first run into a fresh store
# (as-of the ledger's last day), then of a night of 10,000 rows judged incrementally (as-of the night's day), then the
# same night judged from scratch (`--full`) on a copy of the store. RECORD=1 writes the hashes instead of checking.
# Exits 1 when a report differs: a faster judge must say exactly what the recorded one said.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-bench-data}
ROWS=${ROWS:-1000000}
BIN=${BIN:-./.build/release/iap-recon}
GEN=scripts/gen_ledger.py
mkdir -p "$DATA"
source scripts/bench-lib.sh
CSV=$(ensure_ledger "$ROWS" uuid)
NIGHT="$DATA/golden-night-$ROWS.csv"
[ -f "$NIGHT" ] || python3 "$GEN" 10000 "$NIGHT" --night-of "$CSV" --seed 1 2>/dev/null
FIRST_END=$(python3 "$GEN" --day-end-of "$CSV")
NIGHT_END=$(python3 "$GEN" --day-end-of "$NIGHT")
W="$DATA/golden"
rm -rf "$W"
mkdir -p "$W"
report() { "$BIN" report "$@" >/dev/null 2>>"$DATA/bench.log" || [ $? = 3 ]; }
"$BIN" import --db "$W/store.sqlite" --transactions "$CSV" --products "$DATA/products.csv" >/dev/null 2>>"$DATA/bench.log"
report --db "$W/store.sqlite" --as-of "$FIRST_END" --out "$W/first"
"$BIN" import --db "$W/store.sqlite" --transactions "$NIGHT" --products "$DATA/products.csv" >/dev/null 2>>"$DATA/bench.log"
cp "$W/store.sqlite" "$W/full.sqlite"
report --db "$W/store.sqlite" --as-of "$NIGHT_END" --out "$W/night"
report --db "$W/full.sqlite" --full --as-of "$NIGHT_END" --out "$W/night-full"
# hashes FOLDER: each CSV's SHA-256, without the data folder's own path (rejected.csv names the input files).
hashes() {
    for f in "$W/$1"/*.csv; do
        printf '%s  %s/%s\n' "$(sed "s#$(realpath "$DATA")/##g; s#$DATA/##g" "$f" | sha256sum | cut -d' ' -f1)" "$1" \
            "$(basename "$f")"
    done
}
ACTUAL=$(hashes first; hashes night)
if ! diff <(hashes night) <(hashes night-full | sed 's#  night-full/#  night/#') >"$W/full-differences.txt"; then
    echo "golden: the night judged incrementally and from scratch differ:"
    cat "$W/full-differences.txt"
    exit 1
fi
EXPECTED="scripts/golden/ledger-uuid-$ROWS.sha256"
if [ "${RECORD:-0}" = 1 ]; then
    mkdir -p scripts/golden
    echo "$ACTUAL" >"$EXPECTED"
    echo "recorded $EXPECTED ($(wc -l <"$EXPECTED") reports)"
    exit 0
fi
if [ ! -f "$EXPECTED" ]; then
    echo "no recorded hashes for $ROWS rows ($EXPECTED): RECORD=1 $0 records them"
    exit 1
fi
if diff <(echo "$ACTUAL") "$EXPECTED" >"$W/differences.txt"; then
    echo "golden: every report of the $ROWS-row ledger (first run, the night incremental and from scratch) as recorded"
else
    echo "golden: reports of the $ROWS-row ledger differ from the recorded ones:"
    cat "$W/differences.txt"
    exit 1
fi
