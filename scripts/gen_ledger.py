#!/usr/bin/env python3
"""Writes a ledger shaped like a real backend export (docs/CONTRACT.md §1.1), deterministic for a seed.

    gen_ledger.py ROWS OUT.csv [--ids uuid|numeric] [--seed N] [--products OUT.csv]

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
import random
import uuid

PRODUCTS = [  # product_id, type, weight
    ("coins_100", "consumable", 30), ("coins_500", "consumable", 15), ("coins_2000", "consumable", 5),
    ("remove_ads", "non-consumable", 8), ("level_pack_1", "non-consumable", 4),
    ("pro_monthly", "auto-renewable", 25), ("pro_yearly", "auto-renewable", 8), ("season_pass", "non-renewing", 5),
]
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rows", type=int)
    ap.add_argument("out")
    ap.add_argument("--ids", choices=["uuid", "numeric"], default="uuid")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--products")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    uuid_rng = random.Random(a.seed + 1)

    def new_uuid():
        return str(uuid.UUID(int=uuid_rng.getrandbits(128), version=4))

    users = max(1, a.rows // 3)
    user_ids = [new_uuid() if a.ids == "uuid" else str(100_000 + i * 7) for i in range(users)]
    product_names = [p[0] for p in PRODUCTS]
    product_cum = list(__import__("itertools").accumulate(p[2] for p in PRODUCTS))
    fronts = [s for s in STOREFRONTS if s[3] > 0]
    front_cum = list(__import__("itertools").accumulate(s[3] for s in fronts))
    price_cache = {}
    start = 1_790_812_800_000  # 2026-10-01T00:00:00Z
    span = 60 * 86_400_000
    step = span / max(1, a.rows)
    tx = 2_000_000_900_000_000
    subs = {}  # user -> original transaction id of a running subscription
    recent = []  # (tid, otid, user, product, ...) for duplicates
    written = 0
    record = 0
    with open(a.out, "w", newline="") as f:
        f.write(HEADER)
        while written < a.rows:
            record += 1
            ms = int(start + written * step + rng.random() * step)
            user = user_ids[min(users - 1, int(users * rng.random() ** 1.6))]
            product = rng.choices(product_names, cum_weights=product_cum)[0]
            sf, cur, dec, _ = rng.choices(fronts, cum_weights=front_cum)[0]
            tx += rng.randrange(1, 40)
            tid = str(tx)
            otid = tid
            if product in ("pro_monthly", "pro_yearly"):
                otid = subs.setdefault((user, product), tid)
            qty = 1
            if product.startswith("coins") and rng.random() < 0.05:
                qty = rng.randrange(2, 6)
            env = "Sandbox" if rng.random() < 0.005 else "Production"
            r = rng.random()
            status = "pending" if r < 0.02 else "invalid" if r < 0.03 else "error" if r < 0.032 else "verified"
            delivered = "" if rng.random() < 0.002 else iso(ms + rng.randrange(500, 5000), rng)
            finished = "" if (not delivered or rng.random() < 0.01) else iso(ms + rng.randrange(5000, 60000), rng)
            receipt = new_uuid() if rng.random() < 0.10 else ""
            rid = new_uuid() if a.ids == "uuid" else str(record)
            row = [rid, user, product, tid, otid, iso(ms, rng), str(qty), env, price_cache.setdefault((product, cur), price_text(product, cur, dec)), cur, sf,
                   status, delivered, finished, receipt]
            f.write(",".join(row) + "\n")
            written += 1
            recent.append(row)
            if len(recent) > 64:
                recent.pop(0)
            if written < a.rows and rng.random() < 0.0035:  # the same transaction recorded again
                again = list(rng.choice(recent))
                record += 1
                again[0] = new_uuid() if a.ids == "uuid" else str(record)
                if rng.random() < 0.15:  # ... credited to another user: a replay
                    again[1] = rng.choice(user_ids)
                f.write(",".join(again) + "\n")
                written += 1
    if a.products:
        with open(a.products, "w", newline="") as f:
            f.write("product_id,type,price,currency,storefront,proceeds_rate\n")
            for name, kind, _ in PRODUCTS:
                for sf, cur, dec, _ in STOREFRONTS:
                    f.write(f"{name},{kind},{price_text(name, cur, dec)},{cur},{sf},0.70\n")


if __name__ == "__main__":
    main()
