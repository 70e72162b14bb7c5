#!/usr/bin/env bash
# Fuzzes the input readers with libFuzzer (swiftc -sanitize=fuzzer, from the Swift toolchain),
# each for FUZZ_SECONDS (default 60), seeded from the test fixtures. Builds go to .build-fuzz.
#
# Targets: csv (ledger CSV reader + every field parser), jsonl (JSONL reader + field parsers),
# plist (iOS 6 receipt old-style plist). Slots not built here yet: pkcs7 (app receipt decoder) and
# jws (signed data parser) need swift-asn1/swift-certificates/swift-crypto compiled with the
# fuzzer too; sales-report (Summary Sales Report parser).
#
# Prints one line per target: runs, crashes; exits 1 when any target found a crash (the input is
# kept in .build-fuzz/<target>/crash-*; make it a regression test).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH="${FUZZ_SECONDS:-60}"
OUT=.build-fuzz
M=Sources/IAPRecon
IMPORT="$M/Import/CSVReader.swift $M/Import/RowFields.swift $M/Import/RowFields+JSON.swift $M/Model/Timestamp.swift
  $M/Import/UnknownColumns.swift $M/Model/Money.swift $M/Model/Money+Overflow.swift $M/Model/Currency.swift
  $M/Model/Transaction.swift $M/Model/Receipt.swift $M/Model/Product.swift $M/Model/Environment.swift
  $M/Model/Verification.swift $M/Model/RejectedRow.swift $M/Model/Evidence.swift"
mkdir -p "$OUT"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

build() {  # name, sources...
    local name="$1"; shift
    swiftc -parse-as-library -module-name IAPRecon -O -sanitize=fuzzer,address "$@" -o "$OUT/fuzz-$name" \
        > "$OUT/build-$name.log" 2>&1 || { cat "$OUT/build-$name.log"; exit 1; }
}

seed() {  # name, files...
    local name="$1"; shift
    mkdir -p "$OUT/$name/corpus"
    for file in "$@"; do cp "$file" "$OUT/$name/corpus/"; done
}

build csv $IMPORT Fuzz/CSVFuzz.swift Fuzz/FuzzInput.swift
build jsonl $IMPORT Fuzz/JSONLFuzz.swift Fuzz/FuzzInput.swift
build plist $M/Receipts/OldStylePlist.swift Fuzz/PlistFuzz.swift

seed csv Tests/IAPReconTests/Fixtures/ledger/*.csv
printf '%s\n' '{"record_id":"r1","user_id":"u1","product_id":"p","transaction_id":"1","purchase_date":1795176000000,"verification_status":"pending","price":"0.99","currency":"USD"}' \
    '{"receipt_id":"rc1","format":"signed-transaction","data":"eyJhbGciOiJFUzI1NiJ9.e30.AA","claimed_environment":"Sandbox"}' \
    > "$scratch/seed.jsonl"
seed jsonl "$scratch/seed.jsonl"
# Apple's iOS 6 receipt vector: the receipt text and the purchase-info text inside it.
base64 -d Tests/IAPReconTests/Fixtures/apple-server-library/mock_signed_data/legacyTransaction \
    > "$scratch/receipt.plist"
sed -n 's/.*"purchase-info" = "\([^"]*\)".*/\1/p' "$scratch/receipt.plist" | base64 -d > "$scratch/purchase-info.plist"
seed plist "$scratch"/*.plist

status=0
total_runs=0
total_crashes=0
for name in csv jsonl plist; do
    log="$OUT/$name/last-run.log"
    rm -f "$OUT/$name"/crash-*
    set +e
    FUZZ_SCRATCH="$scratch" "$OUT/fuzz-$name" "$OUT/$name/corpus" -max_total_time="$SECONDS_EACH" -max_len=4096 \
        -rss_limit_mb=1024 -print_final_stats=1 -artifact_prefix="$OUT/$name/" > "$log" 2>&1
    code=$?
    set -e
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    crashes=$(find "$OUT/$name" -maxdepth 1 -name 'crash-*' -o -maxdepth 1 -name 'oom-*' -o -maxdepth 1 -name 'timeout-*' | wc -l)
    corpus=$(find "$OUT/$name/corpus" -type f | wc -l)
    echo "fuzz $name: ${SECONDS_EACH}s, ${runs:-0} executions, corpus $corpus, crashes $crashes (exit $code)"
    total_runs=$((total_runs + ${runs:-0}))
    total_crashes=$((total_crashes + crashes))
    if [ "$code" -ne 0 ] || [ "$crashes" -ne 0 ]; then status=1; fi
done
echo "fuzz total: $total_runs executions, $total_crashes crashes"
exit $status
