#!/usr/bin/env bash
# `make bench-citus`: the whole job (`iap-recon demo`: import, verify against the App Store simulator on 127.0.0.1,
# report) with its store on one PostgreSQL server and on a three-node Citus cluster (a coordinator and two workers on
# loopback, CITUS_SOURCE's cluster.sh), in one run, release build. Prints each wall time and Citus's ratio to one
# server (target <= 3, goal 1.5). PURCHASES (default 3,000, the demo's own) sets the demo's size.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-bench-data}
BIN=${BIN:-./.build/release/iap-recon}
PURCHASES=${PURCHASES:-3000}
CITUS_SOURCE=${CITUS_SOURCE:-../shared/citus}
mkdir -p "$DATA"
source scripts/bench-lib.sh
if ! start_throwaway_postgres bench-citus; then
    echo "Citus skipped: no PostgreSQL server programs (apt-get install postgresql)"
    exit 0
fi
CLUSTER=$(mktemp -d /tmp/iap-recon-citus.XXXXXX)
CPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
trap 'bash "$CITUS_SOURCE/cluster.sh" stop "$CLUSTER" || true; rm -rf "$CLUSTER"; stop_throwaway_postgres' EXIT
bash "$CITUS_SOURCE/cluster.sh" start "$CLUSTER" "$CPORT"
bash "$CITUS_SOURCE/cluster.sh" mkdb "$CLUSTER" demo
PG="postgresql://recon:$PASSWORD@127.0.0.1:$PORT/postgres?sslmode=disable"
CITUS="postgresql://postgres@127.0.0.1:$CPORT/demo?sslmode=disable"

echo "| the demo's whole job ($PURCHASES purchases), release build | wall | peak RSS |"
echo "|---|---|---|"
PHASES=0
declare -A WALL
for store in postgresql citus; do
    url=$PG
    [ "$store" = citus ] && url=$CITUS
    rm -rf "$DATA/demo-$store"
    measure_run "$BIN" demo --purchases "$PURCHASES" --out "$DATA/demo-$store" --db "$url"
    WALL[$store]=$M_WALL
    printf '| %-30s | %8s s | %5s MB |\n' "store on $store" "$M_WALL" "$M_RSS"
done
# The reports byte for byte, each folder's own path taken out (`rejected.csv` names its input files).
for f in "$DATA"/demo-postgresql/*.csv; do
    cmp -s <(sed "s#$DATA/demo-postgresql/##g" "$f") <(sed "s#$DATA/demo-citus/##g" "$DATA/demo-citus/$(basename "$f")") ||
        echo "  DIFFERS: $(basename "$f")"
done
echo "  Citus / one server: $(ratio "${WALL[citus]}" "${WALL[postgresql]}") (target <= 3, goal 1.5)"
