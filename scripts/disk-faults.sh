#!/usr/bin/env bash
# Disk full and a read-only output folder: `report` must fail with one clear line and exit 1,
# leave no temporary or half-written report file, and leave the store intact (integrity ok, and
# a report to a good folder still works). Needs mount rights (root, or sudo for unshare).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${IAP_RECON:-./.build/debug/iap-recon}"
if [ "$(id -u)" = "0" ]; then NS="unshare -m"; else NS="sudo unshare -m"; fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fixtures=Tests/IAPReconTests/Fixtures/ledger
"$BIN" import --db "$work/s.sqlite" --transactions "$fixtures/small-transactions.csv" \
    --products "$fixtures/small-products.csv" > /dev/null
asof=2026-11-20T12:00:00Z
failures=0
check() {  # name, mount options
    local name="$1" options="$2" out="$work/$1"
    mkdir -p "$out"
    set +e
    # In a private mount namespace: a tiny tmpfs, filled up (disk full) or mounted read-only.
    $NS sh -c "mount -t tmpfs -o $options tmpfs '$out' && { [ '$name' != full ] || dd if=/dev/zero of='$out/fill' bs=4096 2>/dev/null; true; } \
        && '$BIN' report --db '$work/s.sqlite' --out '$out' --as-of $asof > '$work/$name.stdout' 2> '$work/$name.stderr'; \
        code=\$?; ls -A '$out' > '$work/$name.files'; exit \$code"
    code=$?
    set -e
    local errors leftovers
    errors=$(grep -c 'error' "$work/$name.stderr" || true)
    leftovers=$(grep -v '^fill$' "$work/$name.files" || true)
    integrity=$(python3 -c "import sqlite3,sys;print(sqlite3.connect(sys.argv[1]).execute('PRAGMA integrity_check').fetchone()[0])" "$work/s.sqlite")
    echo "$name: exit $code; stderr: $(head -1 "$work/$name.stderr"); files left: ${leftovers:-none}; store integrity: $integrity"
    if [ "$code" -ne 1 ] || [ "$errors" -ne 1 ] || [ -n "$leftovers" ] || [ "$integrity" != ok ]; then failures=$((failures + 1)); fi
}
check full "size=64k"
check read-only "ro,size=1m"
"$BIN" report --db "$work/s.sqlite" --out "$work/good" --as-of $asof > /dev/null
for file in discrepancies.csv revenue_daily.csv rejected.csv reconciliation.xlsx run.json; do
    [ -s "$work/good/$file" ] || { echo "after the faults, a report to a good folder lacks $file"; failures=$((failures + 1)); }
done
echo "disk faults: 2 checked, $failures failed"
[ "$failures" -eq 0 ]
