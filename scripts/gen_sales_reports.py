#!/usr/bin/env python3
"""Writes Apple Summary Sales Reports for a ledger `gen_ledger.py` wrote, one file per day (CONTRACT §1.5).

    gen_sales_reports.py OUTDIR LEDGER.csv [MORE.csv ...] --ended-by TIME [--days N]

Each report is what Apple would publish for one day (America/Los_Angeles, as Apple's reports use): the
Production purchases made that day, each transaction id once (a duplicate or replayed row is not another
sale; a row the backend left `pending` or later marked `invalid` was still paid), summed per SKU, country,
currency and customer price, under
the product's type identifier (IA1 consumable, IA9 non-consumable, IAY auto-renewable, IAC non-renewing),
with developer proceeds at 70 % of the price, and the day's app downloads (product type 1, which the
reconciliation skips). Apple publishes a day's report once the day has ended: the last N days (default
30) that ended by TIME (ISO 8601 with `Z` or an offset, e.g. the as-of of the report that reads them) are
written; `--days 1` with the night's end is the report a nightly job fetches. Prints the written paths, one
per line.
"""
import argparse
import csv
import datetime as dt
import os
import sys
from collections import defaultdict
from zoneinfo import ZoneInfo

from gen_ledger import PRODUCTS, STOREFRONTS, epoch_ms

PACIFIC = ZoneInfo("America/Los_Angeles")
ALPHA2 = {"USA": "US", "DEU": "DE", "FRA": "FR", "GBR": "GB", "JPN": "JP", "KOR": "KR", "BRA": "BR", "CAN": "CA",
          "KWT": "KW"}
DECIMALS = {currency: decimals for _, currency, decimals, _ in STOREFRONTS}
# Apple's Product Type Identifier of each in-app purchase type.
TYPE_IDENTIFIER = {"consumable": "IA1", "non-consumable": "IA9", "auto-renewable": "IAY", "non-renewing": "IAC"}
PRODUCT_TYPES = {product: TYPE_IDENTIFIER[kind] for product, kind, _ in PRODUCTS}
HEADER = ["Provider", "Provider Country", "SKU", "Developer", "Title", "Version", "Product Type Identifier", "Units",
          "Developer Proceeds", "Begin Date", "End Date", "Customer Currency", "Country Code",
          "Currency of Proceeds", "Apple Identifier", "Customer Price", "Promo Code", "Parent Identifier",
          "Subscription", "Period", "Category", "CMB", "Device", "Supported Platforms", "Proceeds Reason",
          "Preserved Pricing", "Client", "Order Type"]


def money(minor, currency):
    decimals = DECIMALS[currency]
    if decimals == 0:
        return str(minor)
    sign = "-" if minor < 0 else ""
    minor = abs(minor)
    return f"{sign}{minor // 10 ** decimals}.{minor % 10 ** decimals:0{decimals}d}"


def minor_units(text, currency):
    whole, _, fraction = text.partition(".")
    decimals = DECIMALS[currency]
    return int(whole) * 10 ** decimals + int((fraction + "0" * decimals)[:decimals] or 0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("ledgers", nargs="+")
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--ended-by", required=True)
    args = parser.parse_args()
    ended_by = epoch_ms(args.ended_by)
    sums = defaultdict(int)
    days = set()
    seen = set()
    for path in args.ledgers:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                day = dt.datetime.fromtimestamp(epoch_ms(row["purchase_date"]) / 1000, PACIFIC).date()
                days.add(day)
                if row["environment"] != "Production" or row["transaction_id"] in seen:
                    continue
                seen.add(row["transaction_id"])
                if not row["price"] or row["storefront"] not in ALPHA2:
                    continue
                # The ledger's price is the customer price of one unit (CONTRACT §1.1).
                price = minor_units(row["price"], row["currency"])
                key = (day, row["product_id"], ALPHA2[row["storefront"]], row["currency"], price)
                sums[key] += int(row["quantity"] or 1)
    def end_ms(day):
        return int(dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), PACIFIC).timestamp() * 1000)
    wanted = [day for day in sorted(days) if end_ms(day) <= ended_by][-args.days:]
    os.makedirs(args.outdir, exist_ok=True)
    for day in wanted:
        path = os.path.join(args.outdir, f"S_D_85858585_{day:%Y%m%d}.txt")
        date = f"{day:%m/%d/%Y}"
        with open(path, "w") as f:
            f.write("\t".join(HEADER) + "\n")
            for (d, sku, country, currency, price), units in sorted(sums.items()):
                if d != day:
                    continue
                proceeds = price * 7 // 10
                values = {"Provider": "APPLE", "Provider Country": "US", "SKU": sku, "Developer": "Example",
                          "Title": sku, "Product Type Identifier": PRODUCT_TYPES.get(sku, "IA1"), "Units": str(units),
                          "Developer Proceeds": money(proceeds, currency), "Begin Date": date, "End Date": date,
                          "Customer Currency": currency, "Country Code": country, "Currency of Proceeds": currency,
                          "Apple Identifier": "1000000001", "Customer Price": money(price, currency)}
                f.write("\t".join(values.get(column, "") for column in HEADER) + "\n")
            # The app's own downloads that day: a row of another product type, left out of the comparison.
            app = {"Provider": "APPLE", "Provider Country": "US", "SKU": "game", "Developer": "Example",
                   "Title": "Game", "Version": "1.0", "Product Type Identifier": "1", "Units": "120",
                   "Developer Proceeds": "0", "Begin Date": date, "End Date": date, "Customer Currency": "USD",
                   "Country Code": "US", "Currency of Proceeds": "USD", "Apple Identifier": "1000000000",
                   "Customer Price": "0"}
            f.write("\t".join(app.get(column, "") for column in HEADER) + "\n")
        print(path)


if __name__ == "__main__":
    sys.exit(main())
