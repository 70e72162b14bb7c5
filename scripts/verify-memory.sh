#!/usr/bin/env bash
# Bounded memory: `verify` over a store of RECEIPTS (default 1,000,000) pending purchases, each with its own
# uploaded receipt, stays under RSS_LIMIT_MB (default 300) of peak RSS. The store is made by the program's own
# `import` from generated files; the verification pages through the pending rows (and the receipts no row names)
# instead of loading them at once.
#
# The receipts are StoreKit testing transactions (JWS signed by Xcode's local key, as Apple's server library's
# Xcode vector, one transaction id each): the decode reads every one and the verification checks every row
# offline and stores its verification ("not signed by Apple; left pending"), so the check measures the store's paging and the per-row
# records, not the network. The Apple URLs point at a closed local port.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${IAP_RECON:-./.build/debug/iap-recon}"
N="${RECEIPTS:-1000000}"
LIMIT_MB="${RSS_LIMIT_MB:-300}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$N" "$work" Tests/IAPReconTests/Fixtures/apple-server-library/xcode/xcode-signed-transaction <<'PY'
import base64, json, sys
count, work, vector = int(sys.argv[1]), sys.argv[2], sys.argv[3]
header, payload, signature = open(vector).read().strip().split(".")
body = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
body["bundleId"] = "com.example.memory"
start = 1_795_000_000_000
with open(f"{work}/t.csv", "w") as ledger, open(f"{work}/r.jsonl", "w") as receipts:
    ledger.write("record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,"
                 "environment,price,currency,storefront,verification_status,delivered_at,finished_at,receipt_id\n")
    for i in range(count):
        transaction = str(3_000_000_000 + i)
        millis = start + i * 97
        body.update(transactionId=transaction, originalTransactionId=transaction, purchaseDate=millis,
                    originalPurchaseDate=millis, signedDate=millis, productId="coins_100")
        encoded = base64.urlsafe_b64encode(json.dumps(body, separators=(",", ":")).encode()).rstrip(b"=").decode()
        ledger.write(f"m{i:07d},u{i % 50_000},coins_100,{transaction},,{millis},1,Production,0.99,USD,USA,pending,"
                     f",,rc{i:07d}\n")
        receipts.write(json.dumps({"receipt_id": f"rc{i:07d}", "user_id": f"u{i % 50_000}",
                                   "format": "signed-transaction", "data": f"{header}.{encoded}.{signature}"},
                                  separators=(",", ":")) + "\n")
PY
closed="http://127.0.0.1:9"
measure() {  # name, command...
    local name="$1"; shift
    /usr/bin/time -f '%M %e %U' -o "$work/$name.time" "$@" > "$work/$name.out" 2> "$work/$name.err" || {
        echo "$name failed:"; tail -5 "$work/$name.err"; exit 1; }
}
measure import "$BIN" import --db "$work/s.sqlite" --transactions "$work/t.csv" --receipts "$work/r.jsonl"
measure verify "$BIN" verify --db "$work/s.sqlite" --bundle-id com.example.memory \
    --verify-receipt-url "$closed/verifyReceipt" --sandbox-verify-receipt-url "$closed/sandbox/verifyReceipt"
read -r import_kb import_s import_cpu < "$work/import.time"
read -r verify_kb verify_s verify_cpu < "$work/verify.time"
pending=$(python3 -c "import sqlite3,sys;print(sqlite3.connect(sys.argv[1]).execute(\"SELECT COUNT(*) FROM verifications WHERE source='offline'\").fetchone()[0])" "$work/s.sqlite")
echo "verify memory: $N receipts; import ${import_s}s (cpu ${import_cpu}s) peak RSS $((import_kb / 1024)) MB;" \
    "verify ${verify_s}s (cpu ${verify_cpu}s) peak RSS $((verify_kb / 1024)) MB (limit ${LIMIT_MB} MB); $pending rows checked offline, one stored verification each (left pending: signed by Xcode, not Apple)"
grep '^verify:' "$work/verify.out" || true
[ "$pending" -eq "$N" ] || { echo "verify memory: expected $N offline verifications, found $pending"; exit 1; }
[ $((verify_kb / 1024)) -le "$LIMIT_MB" ]
