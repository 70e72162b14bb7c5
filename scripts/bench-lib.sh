# Sourced by the benchmark scripts (bench.sh, bench-night.sh, bench-night-reports.sh, bench-sizes.sh, bench-postgres.sh, bench-store.sh): measuring a
# command, ratios and ranges, store sizes, the generated inputs, the references' virtual environment, and two report
# folders compared.
# Expects DATA (the directory of generated inputs and stores) to be set.

# measure COMMAND...: runs it with its output discarded (stderr appended to $DATA/bench.log) and sets M_WALL
# (seconds), M_RSS (peak RSS, MB), M_USER and M_SYS (CPU seconds in user space and in the kernel), M_IN and M_OUT
# (MB the device read and wrote for it). An iap-recon command ($BIN) runs with `--log-level debug`, and the phases
# it logged (wall, CPU, bytes read and written through system calls and by the device: PhaseTimer) are printed
# under it, unless PHASES=0. A command that fails stops the benchmark with its log.
measure_run() {
    local log err status=0 args=("$@")
    log=$(mktemp)
    err=$(mktemp)
    if [ -n "${BIN:-}" ] && [ "$1" = "$BIN" ] && [ "${PHASES:-1}" != 0 ]; then args+=(--log-level debug); fi
    /usr/bin/time -f "%e %M %U %S %I %O" -o "$log" "${args[@]}" >/dev/null 2>"$err" || status=$?
    cat "$err" >>"$DATA/bench.log"
    if [ "$status" != 0 ] && [ "$status" != 3 ]; then  # 3: findings at or above --fail-on, not a failure
        echo "failed (exit $status): $*" >&2
        tail -5 "$err" >&2
        rm -f "$log" "$err"
        exit 1
    fi
    read -r M_WALL kb M_USER M_SYS blocks_in blocks_out < <(tail -1 "$log")
    rm -f "$log"
    M_RSS=$(( kb / 1024 ))
    M_IN=$(( blocks_in / 2048 ))
    M_OUT=$(( blocks_out / 2048 ))
    if [ "${PHASES:-1}" != 0 ]; then
        python3 scripts/bench_phases.py "$err" "$(basename "$1") $2: ${M_WALL} s, cpu ${M_USER} + ${M_SYS} s, ${M_RSS} MB"
    fi
    rm -f "$err"
}

# ratio A B: A / B with two decimals.
ratio() { printf "%.2f" "$(echo "$1 / $2" | bc -l)"; }

# sum A B...: the sum, with two decimals.
sum() { local IFS=+; printf "%.2f" "$(echo "$*" | bc -l)"; }

# span VALUE...: "min–max" of the values (one value when they are equal), with the given decimals (SPAN_DECIMALS, default 2).
span() {
    printf '%s\n' "$@" | sort -g | awk -v d="${SPAN_DECIMALS:-2}" 'NR == 1 { lo = $1 } { hi = $1 }
        END { a = sprintf("%." d "f", lo); b = sprintf("%." d "f", hi); print (a == b ? a : a "–" b) }'
}

# store_bytes DB: bytes of the store's file and its write-ahead log (absent when SQLite removed it on close).
store_bytes() {
    local total=0 f
    for f in "$1" "$1-wal"; do
        [ -f "$f" ] && total=$(( total + $(stat -c %s "$f") ))
    done
    echo "$total"
}

# mb BYTES: megabytes with one decimal.
mb() { printf "%.1f" "$(echo "$1 / 1048576" | bc -l)"; }

# copy_store FROM TO: the store's file and write-ahead log, taken while no process has it open.
copy_store() {
    rm -f "$2" "$2-wal" "$2-shm"
    cp "$1" "$2"
    if [ -f "$1-wal" ]; then cp "$1-wal" "$2-wal"; fi
}

# remove_store DB
remove_store() { rm -f "$1" "$1-wal" "$1-shm" "$1.lock"; }

# ensure_ledger ROWS IDS: generates $DATA/ledger-IDS-ROWS.csv (and $DATA/products.csv) when missing; prints its path.
ensure_ledger() {
    local csv="$DATA/ledger-$2-$1.csv"
    [ -f "$csv" ] || python3 scripts/gen_ledger.py "$1" "$csv" --ids "$2" >&2
    [ -f "$DATA/products.csv" ] || python3 scripts/gen_ledger.py 1 /dev/null --products "$DATA/products.csv"
    echo "$csv"
}

# ensure_venv: pandas, XlsxWriter and DuckDB in a throw-away virtual environment ($DATA/venv); sets VENV, and
# REFERENCES=0 with a message when the package registry cannot be reached.
ensure_venv() {
    VENV="$DATA/venv"
    if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import pandas, xlsxwriter, duckdb" 2>/dev/null; then
        return
    fi
    rm -rf "$VENV"
    if ! { python3 -m venv "$VENV" && "$VENV/bin/pip" install -q --disable-pip-version-check \
            pandas xlsxwriter duckdb; } >"$DATA/venv.log" 2>&1; then
        echo "pandas and DuckDB references skipped: the package registry could not be reached (see $DATA/venv.log)"
        REFERENCES=0
    fi
}

# compare_reports A B: whether two report folders say the same, apart from what depends on the store's history
# (a finding's detected_at is the as-of of the run that first saw it; revenue_changes.csv lists what changed since
# the previous report; run.json and the workbook record the run). Prints the differences.
compare_reports() {
    python3 - "$1" "$2" <<'PY'
import csv, os, sys
a, b = sys.argv[1], sys.argv[2]
differ = False
for name in sorted(set(os.listdir(a)) | set(os.listdir(b))):
    if not name.endswith(".csv") or name == "revenue_changes.csv":
        continue
    rows = []
    for folder in (a, b):
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            rows.append(None)
            continue
        with open(path, newline="") as f:
            table = list(csv.reader(f))
        if table and "detected_at" in table[0]:
            k = table[0].index("detected_at")
            table = [r[:k] + r[k + 1:] for r in table]
        rows.append(table)
    if rows[0] != rows[1]:
        differ = True
        first, second = (set(map(tuple, t or [])) for t in rows)
        print(f"  {name}: {len(first - second)} rows only in {a}, {len(second - first)} only in {b}")
        for r in sorted(first - second)[:3]:
            print("    -", ",".join(r)[:160])
        for r in sorted(second - first)[:3]:
            print("    +", ",".join(r)[:160])
sys.exit(1 if differ else 0)
PY
}

# xlsx_floor WORKBOOK SHEET...: writes the named sheets' cells again with libxlsxwriter alone (scripts/xlsx_floor.c,
# compiled into $DATA/xlsx-floor) and sets M_WALL: the least any report writing those cells with libxlsxwriter can
# take. Sets M_WALL empty, with a message, when no C compiler is found.
xlsx_floor() {
    local workbook=$1 dir="$DATA/xlsx-floor"; shift
    mkdir -p "$dir"
    if [ ! -x "$dir/xlsx_floor" ] || [ scripts/xlsx_floor.c -nt "$dir/xlsx_floor" ]; then
        local compiler=${CC:-$(command -v cc || command -v clang || echo cc)}
        if ! "$compiler" -O2 -o "$dir/xlsx_floor" scripts/xlsx_floor.c -lxlsxwriter 2>>"$DATA/bench.log"; then
            echo "the workbook's floor skipped: scripts/xlsx_floor.c did not compile (see $DATA/bench.log)"
            M_WALL=""
            return
        fi
    fi
    rm -f "$dir"/*.cells
    python3 scripts/xlsx_floor_cells.py "$workbook" "$dir" "$@" >/dev/null
    measure_run "$dir/xlsx_floor" "$dir/floor.xlsx" "$dir"/*.cells
    rm -f "$dir"/*.cells "$dir/floor.xlsx"
}

# start_throwaway_postgres LABEL: a PostgreSQL cluster of its own on loopback (initdb into a temporary folder as the
# `postgres` user when root, password auth, fsync off, shared_buffers 256 MB), stopped and removed when the script
# exits. Sets PGBIN, DIR, PORT and PASSWORD; returns 1 (with nothing started) when the server programs are missing.
start_throwaway_postgres() {
    PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
    if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then return 1; fi
    DIR=$(mktemp -d "/tmp/iap-recon-$1.XXXXXX")
    PASSWORD=bench-$RANDOM$RANDOM
    PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    echo "$PASSWORD" > "$DIR/pwfile"
    [ "$(id -u)" = 0 ] && chown -R postgres:postgres "$DIR"
    trap stop_throwaway_postgres EXIT
    as_pg "$PGBIN/initdb" -D "$DIR/data" -U recon --pwfile="$DIR/pwfile" -A scram-sha-256 --no-sync >/dev/null
    as_pg "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w \
        -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=256MB" start >/dev/null
}

# as_pg COMMAND...: runs it as `postgres` when root (the server refuses to run as root).
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

stop_throwaway_postgres() {
    as_pg "$PGBIN/pg_ctl" -D "$DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$DIR"
}
