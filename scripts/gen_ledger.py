#!/usr/bin/env python3
"""Writes a ledger shaped like a real backend export (docs/CONTRACT.md §1.1), deterministic for a seed.

    gen_ledger.py ROWS OUT.csv [--ids uuid|numeric] [--seed N] [--products OUT.csv]
    gen_ledger.py ROWS OUT.csv --night-of LEDGER.csv [MORE.csv ...] [--seed N]
    gen_ledger.py ROWS OUT.csv --reexport-of LEDGER.csv --changed N [--seed N]
    gen_ledger.py --day-end-of FILE.csv [MORE.csv ...]

The first form writes a ledger of ROWS rows: 60 days of purchases from 2026-10-01.

`--night-of` writes a night: ROWS new rows only, the purchases of the UTC day after the last purchase in
the given files (the ledger and the nights already written after it, in any order), in the ledger's
shape: mostly the same users (drawn in proportion to their purchases, a fifth new ones), subscriptions
renewed under their original transaction ids, transaction ids growing on from the largest one, new
record ids (UUIDv4, or numeric ones after the largest), the same rates of pending, invalid, duplicate
and replayed rows. Refunds of older rows are not in it (they would be changed rows, not new ones).
Chained nights differ even for one seed (the seed is mixed with the last transaction id).

`--reexport-of` writes the whole ledger again, as a backend re-exporting it the next day would: the
same rows in the same order, of which `--changed N` are changed in place (up to 40 % pending rows now
`verified`, up to 10 % undelivered rows now delivered and finished, up to 10 % unfinished rows now
finished, filled in with times of the next day; the rest `verified` rows now `invalid`, refunded),
then ROWS new rows appended (as `--night-of` writes them, for the next day).

`--day-end-of` prints the UTC midnight that ends the day of the last purchase in the files (a report's
`--as-of` for them: the night `--night-of` writes starts there).

What makes it realistic (and what the earlier generator did not have):
- record ids are UUIDv4 (`--ids uuid`) or non-padded numeric ids (`--ids numeric`: 1, 2, ... 1000000,
  which do not sort as text the way they sort as numbers); rows come in export order (by purchase time);
- users are spread over about a third as many ids as rows, with a heavy tail (a few users buy a lot);
- purchase, delivery and finish times are ISO 8601, about half with `Z` and half with an offset
  (`-08:00`, `+09:00`, `+05:30`, ...), a quarter of them with milliseconds;
- Apple-like transaction ids (16 digits, growing with time); subscriptions renew under one original id;
- several currencies and storefronts with their own decimals (USD, EUR, GBP, JPY, KRW, BRL, KWD);
- 2 % pending, 10 % with a receipt id, ~0.3 % recorded twice (double delivery), ~0.05 % credited to
  a second user (replay), ~1 % marked `invalid` by the backend after a refund, ~0.5 % Sandbox, ~0.2 %
  never delivered, ~1 % delivered but never finished.
"""
import argparse
import datetime as dt
import itertools
import random
import sys
import uuid

PRODUCTS = [  # product_id, type, weight
    ("coins_100", "consumable", 30), ("coins_500", "consumable", 15), ("coins_2000", "consumable", 5),
    ("remove_ads", "non-consumable", 8), ("level_pack_1", "non-consumable", 4),
    ("pro_monthly", "auto-renewable", 25), ("pro_yearly", "auto-renewable", 8), ("season_pass", "non-renewing", 5),
]
SUBSCRIPTIONS = ("pro_monthly", "pro_yearly")
# storefront, currency, decimals, weight, price per product (in the currency's minor units)
STOREFRONTS = [
    ("USA", "USD", 2, 40), ("DEU", "EUR", 2, 10), ("FRA", "EUR", 2, 6), ("GBR", "GBP", 2, 8), ("JPN", "JPY", 0, 12),
    ("KOR", "KRW", 0, 5), ("BRA", "BRL", 2, 6), ("CAN", "USD", 2, 0), ("KWT", "KWD", 3, 1),
]
BASE_PRICE_USD_CENTS = {"coins_100": 99, "coins_500": 499, "coins_2000": 1999, "remove_ads": 299,
                        "level_pack_1": 199, "pro_monthly": 499, "pro_yearly": 3999, "season_pass": 999}
FX = {"USD": 1.0, "EUR": 1.0, "GBP": 0.9, "JPY": 160.0, "KRW": 1400.0, "BRL": 5.5, "KWD": 0.31}
OFFSETS = [0, 0, 0, 0, -8 * 60, -5 * 60, 60, 9 * 60, 5 * 60 + 30, -3 * 60, 10 * 60]

HEADER = ("record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,"
          "environment,price,currency,storefront,verification_status,delivered_at,finished_at,receipt_id\n")
COLUMNS = HEADER.strip().split(",")
RECORD, USER, PRODUCT, TID, OTID, PURCHASED, QTY, ENV, PRICE, CUR, FRONT, STATUS, DELIVERED, FINISHED, RECEIPT = \
    range(len(COLUMNS))

LEDGER_START_MS = 1_790_812_800_000  # 2026-10-01T00:00:00Z
LEDGER_SPAN_MS = 60 * 86_400_000
DAY_MS = 86_400_000
FIRST_TRANSACTION_ID = 2_000_000_900_000_000
NEW_USER_SHARE = 0.2  # of a night's purchases, by users the ledger has not seen


def price_text(product, currency, decimals):
    cents = BASE_PRICE_USD_CENTS[product]
    if decimals == 0:  # whole units, rounded to a price tier
        units = max(1, round(cents / 100 * FX[currency] / 10) * 10)
        return str(units)
    minor = 10 ** decimals
    value = round(cents * FX[currency] * minor / 100)
    value = value - value % minor + (minor - 10 ** (decimals - 2)) if value >= minor else value  # x.99 tiers
    return f"{value // minor}.{value % minor:0{decimals}d}"


ZONES = {m: dt.timezone(dt.timedelta(minutes=m)) for m in OFFSETS}


def iso(ms, rng):
    offset = rng.choice(OFFSETS)
    t = dt.datetime.fromtimestamp(ms // 1000, ZONES[offset])
    text = f"{t.year:04d}-{t.month:02d}-{t.day:02d}T{t.hour:02d}:{t.minute:02d}:{t.second:02d}"
    if rng.random() < 0.25:
        text += f".{ms % 1000:03d}"
    if offset == 0:
        return text + "Z"
    sign = "+" if offset > 0 else "-"
    return f"{text}{sign}{abs(offset) // 60:02d}:{abs(offset) % 60:02d}"


def epoch_ms(text):
    """Milliseconds since the epoch of an ISO 8601 time with `Z` or an offset, as `iso` writes them."""
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    return int(dt.datetime.fromisoformat(text).timestamp() * 1000)


def iso_utc(ms):
    return dt.datetime.fromtimestamp(ms // 1000, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Rows:
    """Writes ledger rows in export order, drawing each row's choices in the order the ledger has always
    drawn them, so that a seed still writes the same ledger byte for byte."""

    def __init__(self, rng, uuid_rng, ids, tx, record, subs):
        self.rng, self.uuid_rng, self.ids = rng, uuid_rng, ids
        self.tx = tx  # the last transaction id written
        self.record = record  # the last numeric record id written
        self.subs = subs  # (user, product) -> original transaction id of a running subscription
        self.product_names = [p[0] for p in PRODUCTS]
        self.product_cum = list(itertools.accumulate(p[2] for p in PRODUCTS))
        self.fronts = [s for s in STOREFRONTS if s[3] > 0]
        self.front_cum = list(itertools.accumulate(s[3] for s in self.fronts))
        self.price_cache = {}
        self.recent = []  # the last rows written, for duplicates

    def new_uuid(self):
        return str(uuid.UUID(int=self.uuid_rng.getrandbits(128), version=4))

    def new_record_id(self):
        self.record += 1
        return self.new_uuid() if self.ids == "uuid" else str(self.record)

    def write(self, f, rows, start_ms, span_ms, pick_user, pick_other_user):
        """`rows` rows purchased in [start_ms, start_ms + span_ms), spread evenly; returns their users."""
        rng = self.rng
        step = span_ms / max(1, rows)
        written = 0
        while written < rows:
            ms = int(start_ms + written * step + rng.random() * step)
            user = pick_user()
            product = rng.choices(self.product_names, cum_weights=self.product_cum)[0]
            sf, cur, dec, _ = rng.choices(self.fronts, cum_weights=self.front_cum)[0]
            self.tx += rng.randrange(1, 40)
            tid = str(self.tx)
            otid = tid
            if product in SUBSCRIPTIONS:
                otid = self.subs.setdefault((user, product), tid)
            qty = 1
            if product.startswith("coins") and rng.random() < 0.05:
                qty = rng.randrange(2, 6)
            env = "Sandbox" if rng.random() < 0.005 else "Production"
            r = rng.random()
            status = "pending" if r < 0.02 else "invalid" if r < 0.03 else "error" if r < 0.032 else "verified"
            delivered = "" if rng.random() < 0.002 else iso(ms + rng.randrange(500, 5000), rng)
            finished = "" if (not delivered or rng.random() < 0.01) else iso(ms + rng.randrange(5000, 60000), rng)
            receipt = self.new_uuid() if rng.random() < 0.10 else ""
            rid = self.new_record_id()
            price = self.price_cache.setdefault((product, cur), price_text(product, cur, dec))
            row = [rid, user, product, tid, otid, iso(ms, rng), str(qty), env, price, cur, sf,
                   status, delivered, finished, receipt]
            f.write(",".join(row) + "\n")
            written += 1
            self.recent.append(row)
            if len(self.recent) > 64:
                self.recent.pop(0)
            if written < rows and rng.random() < 0.0035:  # the same transaction recorded again
                again = list(rng.choice(self.recent))
                again[0] = self.new_record_id()
                if rng.random() < 0.15:  # ... credited to another user: a replay
                    again[1] = pick_other_user()
                f.write(",".join(again) + "\n")
                written += 1


def write_ledger(a):
    rng = random.Random(a.seed)
    uuid_rng = random.Random(a.seed + 1)
    rows = Rows(rng, uuid_rng, a.ids, FIRST_TRANSACTION_ID, 0, {})
    users = max(1, a.rows // 3)
    user_ids = [rows.new_uuid() if a.ids == "uuid" else str(100_000 + i * 7) for i in range(users)]
    with open(a.out, "w", newline="") as f:
        f.write(HEADER)
        rows.write(f, a.rows, LEDGER_START_MS, LEDGER_SPAN_MS,
                   lambda: user_ids[min(users - 1, int(users * rng.random() ** 1.6))],
                   lambda: rng.choice(user_ids))


def ledger_lines(path):
    with open(path, newline="") as f:
        header = f.readline()
        if header != HEADER:
            sys.exit(f"{path}: not a ledger of this generator (header differs)")
        for line in f:
            yield line


class Scan:
    """What a night continues from: the files' last purchase and largest ids, their users (a sample in
    proportion to their purchases, bounded) and their running subscriptions."""
    SAMPLE = 200_000

    def __init__(self, paths, keep_kinds=False):
        self.last_ms = 0
        self.max_tx = 0
        self.max_record = 0
        self.max_user = 0
        self.ids = None
        self.numeric_users = True
        self.users = []  # every `stride`-th row's user
        self.stride = 1
        self.subs = {}
        self.rows = 0
        self.kinds = bytearray() if keep_kinds else None  # per row: PENDING | UNDELIVERED | UNFINISHED | VERIFIED
        for path in paths:
            for line in ledger_lines(path):
                self.add(line.rstrip("\n").split(","))

    PENDING, UNDELIVERED, UNFINISHED, VERIFIED = 1, 2, 4, 8

    def add(self, r):
        if len(r) != len(COLUMNS):
            sys.exit(f"row {self.rows + 1}: {len(r)} fields, not {len(COLUMNS)}")
        if self.ids is None:
            self.ids = "numeric" if r[RECORD].isdigit() else "uuid"
        if self.ids == "numeric":
            self.max_record = max(self.max_record, int(r[RECORD]))
        user = r[USER]
        if self.numeric_users and user.isdigit():
            self.max_user = max(self.max_user, int(user))
        else:
            self.numeric_users = False
        self.last_ms = max(self.last_ms, epoch_ms(r[PURCHASED]))
        self.max_tx = max(self.max_tx, int(r[TID]))
        if r[PRODUCT] in SUBSCRIPTIONS:
            self.subs.setdefault((user, r[PRODUCT]), r[OTID])
        if self.rows % self.stride == 0:
            self.users.append(user)
            if len(self.users) >= 2 * self.SAMPLE:
                del self.users[1::2]
                self.stride *= 2
        if self.kinds is not None:
            status = r[STATUS]
            kind = self.PENDING if status == "pending" else self.VERIFIED if status == "verified" else 0
            if not r[DELIVERED]:
                kind |= self.UNDELIVERED
            elif not r[FINISHED]:
                kind |= self.UNFINISHED
            self.kinds.append(kind)
        self.rows += 1

    def day_end_ms(self):
        return (self.last_ms // DAY_MS + 1) * DAY_MS


def write_new_rows(f, scan, rows, seed, tag):
    """`rows` new purchases of the day after the last one in `scan`."""
    mix = f"{tag}:{seed}:{scan.max_tx}"
    rng = random.Random(mix)
    uuid_rng = random.Random("uuid:" + mix)
    new = Rows(rng, uuid_rng, scan.ids or "uuid", scan.max_tx, scan.max_record, scan.subs)
    pool = list(scan.users) or [new.new_uuid()]
    next_user = [scan.max_user]

    def pick_user():
        if rng.random() < NEW_USER_SHARE:
            if scan.numeric_users and scan.max_user:
                next_user[0] += 7
                user = str(next_user[0])
            else:
                user = new.new_uuid()
        else:
            user = rng.choice(pool)
        pool.append(user)  # a new user may buy again the same day
        return user

    new.write(f, rows, scan.day_end_ms(), DAY_MS, pick_user, lambda: rng.choice(pool))


def write_night(a):
    scan = Scan(a.night_of)
    with open(a.out, "w", newline="") as f:
        f.write(HEADER)
        write_new_rows(f, scan, a.rows, a.seed, "night")


def write_reexport(a):
    scan = Scan([a.reexport_of], keep_kinds=True)
    rng = random.Random(f"reexport:{a.seed}:{scan.max_tx}")
    day = scan.day_end_ms()
    kinds = scan.kinds
    chosen = {}  # row index -> change

    def choose(candidates, count, change):
        candidates = [i for i in candidates if i not in chosen]
        for i in rng.sample(candidates, min(count, len(candidates))):
            chosen[i] = change

    changed = min(a.changed, scan.rows)
    choose([i for i, k in enumerate(kinds) if k & Scan.PENDING], round(changed * 0.4), "verified")
    choose([i for i, k in enumerate(kinds) if k & Scan.UNDELIVERED], round(changed * 0.1), "delivered")
    choose([i for i, k in enumerate(kinds) if k & Scan.UNFINISHED], round(changed * 0.1), "finished")
    verified = [i for i, k in enumerate(kinds) if k & Scan.VERIFIED]
    choose(verified, changed - len(chosen), "invalid")
    if len(chosen) < changed:
        sys.exit(f"only {len(chosen)} rows of {scan.rows} can be changed, not {changed}")

    def later():  # a time of the next day, when the backend filled it in
        return iso(day + int(rng.random() * DAY_MS), rng)

    with open(a.out, "w", newline="") as f:
        f.write(HEADER)
        for i, line in enumerate(ledger_lines(a.reexport_of)):
            change = chosen.get(i)
            if change is None:
                f.write(line)
                continue
            r = line.rstrip("\n").split(",")
            if change == "verified":
                r[STATUS] = "verified"
            elif change == "invalid":
                r[STATUS] = "invalid"
            elif change == "delivered":
                r[DELIVERED] = later()
                r[FINISHED] = r[FINISHED] or later()
            else:
                r[FINISHED] = later()
            f.write(",".join(r) + "\n")
        write_new_rows(f, scan, a.rows, a.seed, "reexport")
    counts = {c: sum(1 for v in chosen.values() if v == c) for c in ("verified", "delivered", "finished", "invalid")}
    print(f"{a.out}: {scan.rows} rows, {len(chosen)} changed ({counts['verified']} pending now verified, "
          f"{counts['delivered']} now delivered, {counts['finished']} now finished, {counts['invalid']} now invalid), "
          f"{a.rows} new", file=sys.stderr)


def write_products(path):
    with open(path, "w", newline="") as f:
        f.write("product_id,type,price,currency,storefront,proceeds_rate\n")
        for name, kind, _ in PRODUCTS:
            for sf, cur, dec, _ in STOREFRONTS:
                f.write(f"{name},{kind},{price_text(name, cur, dec)},{cur},{sf},0.70\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rows", type=int, nargs="?", help="rows to write (new rows for --night-of, --reexport-of)")
    ap.add_argument("out", nargs="?")
    ap.add_argument("--ids", choices=["uuid", "numeric"], default="uuid",
                    help="record ids of a ledger (a night or re-export keeps its ledger's kind)")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--products")
    ap.add_argument("--night-of", nargs="+", metavar="CSV")
    ap.add_argument("--reexport-of", metavar="CSV")
    ap.add_argument("--changed", type=int, default=0)
    ap.add_argument("--day-end-of", nargs="+", metavar="CSV")
    a = ap.parse_args()
    if a.day_end_of:
        print(iso_utc(Scan(a.day_end_of).day_end_ms()))
        return
    if a.rows is None or a.out is None:
        ap.error("ROWS and OUT are required")
    if a.night_of and a.reexport_of:
        ap.error("--night-of and --reexport-of exclude each other")
    if a.night_of:
        write_night(a)
    elif a.reexport_of:
        write_reexport(a)
    else:
        write_ledger(a)
    if a.products:
        write_products(a.products)


if __name__ == "__main__":
    main()
