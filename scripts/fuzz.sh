#!/usr/bin/env bash
# Fuzzes the input readers with libFuzzer (swiftc -sanitize=fuzzer,address, from the Swift toolchain),
# each for FUZZ_SECONDS (default 60), seeded from the test fixtures. Builds go to .build-fuzz.
#
# Targets: csv (ledger CSV reader + every field parser), jsonl (JSONL reader + field parsers),
# plist (iOS 6 receipt old-style plist), pkcs7 (app receipt: PKCS#7 SignedData, the receipt's ASN.1
# payload, the signer certificate and RSA check), jws (compact JWS: split, base64url, header alg and
# x5c certificates, payload JSON as transaction, renewal and notification), sales-report (Summary
# Sales Report through the gzip line reader). FUZZ_TARGETS picks some (default all).
#
# pkcs7 and jws use swift-asn1, swift-certificates and swift-crypto: this program's sources are
# compiled with the fuzzer's instrumentation, the libraries are linked from the package's debug
# build (.build/debug, built by `swift build` first), uninstrumented.
#
# Prints one line per target: executions, crashes; exits 1 when any target found a crash (the input
# is kept in .build-fuzz/<target>/crash-*; make it a regression test).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH="${FUZZ_SECONDS:-60}"
TARGETS="${FUZZ_TARGETS:-csv jsonl plist pkcs7 jws sales-report}"
OUT=.build-fuzz
M=Sources
DEBUG=.build/debug
IMPORT="$M/ReconImport/CSVReader.swift $M/ReconImport/RowRejection.swift $M/ReconModel/MoneyError.swift $M/ReconModel/Entitlement.swift $M/ReconImport/ImportFileError.swift $M/ReconImport/RowFields.swift $M/ReconImport/RowFields+JSON.swift $M/ReconModel/Timestamp.swift
  $M/ReconImport/UnknownColumns.swift $M/ReconModel/Money.swift $M/ReconModel/Money+Overflow.swift $M/ReconModel/Currency.swift
  $M/ReconModel/Transaction.swift $M/ReconModel/Receipt.swift $M/ReconModel/Product.swift $M/ReconModel/ServicePeriod.swift $M/ReconModel/Environment.swift
  $M/ReconModel/Verification.swift $M/ReconModel/RejectedRow.swift $M/ReconModel/Evidence.swift"
R=$M/AppleData/Receipts
RECEIPTS="$(ls $R/*.swift) $M/ReconModel/MoneyError.swift $M/ReconModel/Money+Overflow.swift $M/ReconModel/ReceiptDecodingError.swift $M/ReconModel/EvidenceEntry+Offers.swift
  $M/ReconModel/Evidence.swift $M/ReconModel/ReconClock.swift $M/ReconModel/Environment.swift $M/ReconModel/Money.swift
  $M/ReconModel/Currency.swift $M/ReconModel/Receipt.swift"
SALES="$M/ReconImport/SalesReportParser.swift $M/ReconImport/TabSeparatedHeader.swift $M/ReconModel/MoneyError.swift $M/ReconImport/ImportFileError.swift $M/ReconImport/GzipLineReader.swift $M/ReconImport/CSVReader.swift
  $M/ReconModel/SalesReport.swift $M/ReconModel/RejectedRow.swift $M/ReconModel/Money.swift $M/ReconModel/Money+Overflow.swift
  $M/ReconModel/Currency.swift $M/ReconModel/Territory.swift $M/ReconModel/Timestamp.swift"
mkdir -p "$OUT"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

wanted() { [[ " $TARGETS " == *" $1 "* ]]; }

# Whether the target's binary is newer than each of its Swift sources (then it is not rebuilt).
up_to_date() {  # binary, arguments...
    local binary="$1" argument; shift
    [ -x "$binary" ] || return 1
    for argument in "$@"; do
        case "$argument" in *.swift) [ "$argument" -nt "$binary" ] && return 1 ;; esac
    done
    return 0
}

# The layers' sources are compiled as one module here: their imports of each other are left out.
LAYERS='ReconModel|AppleData|ReconStorage|ReconImport|ReconVerify|ReconFindings|ReconReports|ReconLookup'

build() {  # name, sources...
    local name="$1"; shift
    wanted "$name" || return 0
    up_to_date "$OUT/fuzz-$name" "$@" && return 0
    local sources=() argument copy
    mkdir -p "$scratch/$name"
    for argument in "$@"; do
        case "$argument" in
        *.swift)
            copy="$scratch/$name/$(echo "$argument" | tr / _)"
            grep -Ev "^import ($LAYERS)\$" "$argument" > "$copy"
            sources+=("$copy") ;;
        *) sources+=("$argument") ;;
        esac
    done
    swiftc -parse-as-library -module-name IAPRecon -package-name iap_recon -O -sanitize=fuzzer,address \
        "${sources[@]}" -o "$OUT/fuzz-$name" > "$OUT/build-$name.log" 2>&1 || { cat "$OUT/build-$name.log"; exit 1; }
}

# The C modules and the prebuilt objects of swift-asn1, swift-certificates and swift-crypto.
LIBRARY_FLAGS=()
linked_libraries() {
    [ -d "$DEBUG/X509.build" ] || { echo "fuzz: $DEBUG has no X509 build; run swift build first"; exit 1; }
    local crypto=.build/checkouts/swift-crypto/Sources module target file
    LIBRARY_FLAGS=(-I "$DEBUG/Modules" -Xcc "-fmodule-map-file=Sources/CZlib/module.modulemap" -lz)
    for module in CCryptoBoringSSLShims CCryptoBoringSSL CXKCPShims CXKCP; do
        LIBRARY_FLAGS+=(-Xcc "-fmodule-map-file=$crypto/$module/include/module.modulemap"
            -Xcc -I -Xcc "$crypto/$module/include")
    done
    for target in SwiftASN1 X509 _CertificateInternals Crypto CryptoExtras _CryptoExtras CryptoBoringWrapper \
        CCryptoBoringSSL CCryptoBoringSSLShims CXKCP CXKCPShims; do
        [ -d "$DEBUG/$target.build" ] || continue
        while IFS= read -r -d '' file; do LIBRARY_FLAGS+=("$file"); done \
            < <(find "$DEBUG/$target.build" -name '*.o' -print0)
    done
}

seed() {  # name, files...
    local name="$1"; shift
    wanted "$name" || return 0
    mkdir -p "$OUT/$name/corpus"
    for file in "$@"; do cp "$file" "$OUT/$name/corpus/"; done
}

build csv $IMPORT Fuzz/CSVFuzz.swift Fuzz/FuzzInput.swift
build jsonl $IMPORT Fuzz/JSONLFuzz.swift Fuzz/FuzzInput.swift
build plist $M/AppleData/Receipts/OldStylePlist.swift $M/AppleData/Receipts/OldStylePlistError.swift Fuzz/PlistFuzz.swift
if { wanted pkcs7 && ! up_to_date "$OUT/fuzz-pkcs7" $RECEIPTS Fuzz/PKCS7Fuzz.swift; } \
    || { wanted jws && ! up_to_date "$OUT/fuzz-jws" $RECEIPTS Fuzz/JWSFuzz.swift; }; then
    linked_libraries
fi
build pkcs7 $RECEIPTS Fuzz/PKCS7Fuzz.swift "${LIBRARY_FLAGS[@]}"
build jws $RECEIPTS Fuzz/JWSFuzz.swift "${LIBRARY_FLAGS[@]}"
build sales-report $SALES Fuzz/SalesReportFuzz.swift Fuzz/FuzzInput.swift \
    -Xcc -fmodule-map-file=Sources/CZlib/module.modulemap -lz

FIXTURES=Tests/IAPReconTests/Fixtures
seed csv $FIXTURES/ledger/*.csv
printf '%s\n' '{"record_id":"r1","user_id":"u1","product_id":"p","transaction_id":"1","purchase_date":1795176000000,"verification_status":"pending","price":"0.99","currency":"USD"}' \
    '{"receipt_id":"rc1","format":"signed-transaction","data":"eyJhbGciOiJFUzI1NiJ9.e30.AA","claimed_environment":"Sandbox"}' \
    > "$scratch/seed.jsonl"
seed jsonl "$scratch/seed.jsonl"
# Apple's iOS 6 receipt vector: the receipt text and the purchase-info text inside it.
base64 -d $FIXTURES/apple-server-library/mock_signed_data/legacyTransaction > "$scratch/receipt.plist"
sed -n 's/.*"purchase-info" = "\([^"]*\)".*/\1/p' "$scratch/receipt.plist" | base64 -d > "$scratch/purchase-info.plist"
seed plist "$scratch"/*.plist
# Real Apple-signed app receipts (DER) and the Xcode StoreKit testing ones.
mkdir -p "$scratch/der"
for file in $FIXTURES/real-receipts/*.b64 $FIXTURES/apple-server-library/xcode/xcode-app-receipt-*; do
    tr -d ' \r\n' < "$file" | base64 -d > "$scratch/der/$(basename "$file").der" 2>/dev/null || true
done
seed pkcs7 "$scratch"/der/*.der
# Apple's server-library JWS vectors (signed data and the Xcode ones).
seed jws $FIXTURES/apple-server-library/mock_signed_data/{transactionInfo,renewalInfo,testNotification,wrongBundleId,missingX5CHeaderClaim} \
    $FIXTURES/apple-server-library/xcode/xcode-signed-*
# A Summary Sales Report: Apple's header, sales, a refund, skipped and bad rows; plain and gzip.
{
    printf 'Provider\tProvider Country\tSKU\tDeveloper\tTitle\tVersion\tProduct Type Identifier\tUnits\tDeveloper Proceeds\tBegin Date\tEnd Date\tCustomer Currency\tCountry Code\tCurrency of Proceeds\tApple Identifier\tCustomer Price\n'
    printf 'APPLE\tUS\tdemo_app\tDev\tdemo\t\t1\t57\t0\t11/15/2026\t11/15/2026\tUSD\tUS\tUSD\t1\t0\n'
    printf 'APPLE\tUS\tcoins_100\tDev\tcoins\t\tIA1\t3\t0.69\t11/15/2026\t11/15/2026\tUSD\tUS\tUSD\t2\t0.99\n'
    printf 'APPLE\tUS\tcoins_100\tDev\tcoins\t\tIA1\t2\t100\t11/15/2026\t11/15/2026\tJPY\tJP\tJPY\t2\t160\n'
    printf 'APPLE\tUS\tpro\tDev\tpro\t\tIAY\t-1\t-3.8\t11/15/2026\t11/15/2026\tEUR\tDE\tEUR\t3\t-5.49\n'
    printf 'APPLE\tUS\tcoins_100\tDev\tcoins\t\tIA1\tthree\t0.69\t2026-11-15\t11/30/2026\tUSD\tZZ\tUSD\t2\t0.99\n'
} > "$scratch/S_D_1_20261115.txt"
gzip -c "$scratch/S_D_1_20261115.txt" > "$scratch/S_D_1_20261115.txt.gz"
seed sales-report "$scratch"/S_D_*

status=0
total_runs=0
total_crashes=0
for name in csv jsonl plist pkcs7 jws sales-report; do
    wanted "$name" || continue
    log="$OUT/$name/last-run.log"
    rm -f "$OUT/$name"/crash-* "$OUT/$name"/oom-* "$OUT/$name"/timeout-* "$OUT/$name"/leak-*
    # LeakSanitizer takes what swift-certificates and swift-crypto keep in packed enum payloads for leaks (the
    # references are not plain pointers; reported at exit, outside any input), so the linked targets run
    # without it, per input and at exit; AddressSanitizer stays on.
    leaks=1
    case "$name" in
        pkcs7) max_len=100000 leaks=0 ;;  # real receipts run to 79 KB
        jws) max_len=16384 leaks=0 ;;
        sales-report) max_len=16384 ;;
        *) max_len=4096 ;;
    esac
    set +e
    ASAN_OPTIONS="detect_leaks=$leaks" FUZZ_SCRATCH="$scratch" "$OUT/fuzz-$name" "$OUT/$name/corpus" -max_total_time="$SECONDS_EACH" -max_len=$max_len \
        -detect_leaks=$leaks \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$OUT/$name/" > "$log" 2>&1
    code=$?
    set -e
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    crashes=$(find "$OUT/$name" -maxdepth 1 \( -name 'crash-*' -o -name 'oom-*' -o -name 'timeout-*' -o -name 'leak-*' \) | wc -l)
    corpus=$(find "$OUT/$name/corpus" -type f | wc -l)
    echo "fuzz $name: ${SECONDS_EACH}s, ${runs:-0} executions, corpus $corpus, crashes $crashes (exit $code)"
    total_runs=$((total_runs + ${runs:-0}))
    total_crashes=$((total_crashes + crashes))
    if [ "$code" -ne 0 ] || [ "$crashes" -ne 0 ]; then status=1; fi
done
echo "fuzz total: $total_runs executions, $total_crashes crashes"
exit $status
