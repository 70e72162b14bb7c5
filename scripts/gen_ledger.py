#!/usr/bin/env python3
"""Writes a synthetic transactions CSV (SPEC 1.1) with N rows, deterministic for a seed."""
import random
import sys

def main():
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    path = sys.argv[2] if len(sys.argv) > 2 else "bench-data/transactions.csv"
    rng = random.Random(42)
    products = [("coins_100", "0.99", "USD", "USA"), ("coins_500", "4.99", "USD", "USA"),
                ("premium", "1200", "JPY", "JPN"), ("pro_month", "4.99", "EUR", "DEU"),
                ("pro_year", "39.99", "EUR", "FRA")]
    base = 1_792_584_000_000  # 2026-10-21T00:00:00Z
    with open(path, "w", newline="") as f:
        f.write("record_id,user_id,product_id,transaction_id,original_transaction_id,purchase_date,quantity,"
                "environment,price,currency,storefront,verification_status,delivered_at,finished_at,receipt_id\n")
        for i in range(rows):
            pid, price, cur, sf = products[rng.randrange(len(products))]
            t = base + rng.randrange(30 * 86_400_000)
            tid = 2_000_000_000_000 + i
            status = "pending" if rng.random() < 0.02 else "verified"
            delivered = "" if status == "pending" else str(t + 2000)
            finished = "" if status == "pending" else str(t + 3000)
            f.write(f"r{i:08d},u{rng.randrange(rows // 3 + 1):07d},{pid},{tid},{tid},{t},1,Production,"
                    f"{price},{cur},{sf},{status},{delivered},{finished},\n")

if __name__ == "__main__":
    main()
