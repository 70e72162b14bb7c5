#!/usr/bin/env python3
"""Reference implementations of the nightly job's core, for `make bench` to compare against.

    bench_reference.py pandas LEDGER.csv OUTDIR AS_OF_MS   (pandas + XlsxWriter: CSV and XLSX out)
    bench_reference.py duckdb LEDGER.csv OUTDIR AS_OF_MS   (DuckDB: CSV out)

Both do the same work on the same file: read the ledger, parse ISO 8601 timestamps with offsets,
find duplicate records (one transaction id recorded twice), shared transactions (one transaction id
credited to two users) and undelivered purchases (verified, no delivery, past a one-hour grace),
and compute daily revenue (Production rows not marked invalid, each transaction counted once,
price × quantity per UTC day, product and currency). They run inside a throw-away virtual
environment that `scripts/bench.sh` creates; they are not part of the program.
"""
import os
import sys


def run_pandas(ledger, out, as_of_ms):
    import pandas as pd

    df = pd.read_csv(ledger, dtype=str, keep_default_na=False)
    for column in ("purchase_date", "delivered_at"):
        df[column] = pd.to_datetime(df[column].replace("", None), utc=True, format="ISO8601")
    df["quantity"] = df["quantity"].replace("", "1").astype("int64")
    price = df["price"].replace("", "0").str.split(".", n=1, expand=True)
    whole = price[0].astype("int64")
    frac = price[1].fillna("").str.ljust(3, "0").str[:3].replace("", "000").astype("int64")
    df["milli"] = (whole * 1000 + frac) * df["quantity"]

    counted = df[(df["environment"] == "Production") & (df["verification_status"] != "invalid")]
    sizes = counted.groupby("transaction_id")["record_id"].transform("size")
    duplicates = counted[sizes > 1]
    users = counted.groupby("transaction_id")["user_id"].transform("nunique")
    shared = counted[users > 1]
    grace = pd.Timestamp(as_of_ms, unit="ms", tz="UTC") - pd.Timedelta(hours=1)
    undelivered = df[(df["verification_status"] == "verified") & df["delivered_at"].isna()
                     & (df["purchase_date"] < grace)]
    findings = pd.concat([
        duplicates.assign(code="DUPLICATE_RECORD"), shared.assign(code="SHARED_TRANSACTION"),
        undelivered.assign(code="UNDELIVERED"),
    ])[["code", "transaction_id", "user_id", "product_id", "milli", "currency"]]
    findings = findings.sort_values(["code", "transaction_id", "user_id"], kind="stable")

    first = counted.sort_values(["purchase_date", "record_id"], kind="stable").drop_duplicates("transaction_id")
    first = first.assign(date=first["purchase_date"].dt.strftime("%Y-%m-%d"))
    revenue = first.groupby(["date", "product_id", "currency"], as_index=False).agg(
        units=("quantity", "sum"), gross=("milli", "sum"))
    revenue["gross"] = revenue["gross"] / 1000

    os.makedirs(out, exist_ok=True)
    findings.to_csv(os.path.join(out, "discrepancies.csv"), index=False)
    revenue.to_csv(os.path.join(out, "revenue_daily.csv"), index=False)
    with pd.ExcelWriter(os.path.join(out, "reconciliation.xlsx"), engine="xlsxwriter") as xlsx:
        revenue.to_excel(xlsx, sheet_name="Revenue", index=False)
        findings.to_excel(xlsx, sheet_name="Discrepancies", index=False)
    print(f"pandas: {len(df)} rows, {len(findings)} findings, {len(revenue)} revenue rows")


def run_duckdb(ledger, out, as_of_ms):
    import duckdb

    os.makedirs(out, exist_ok=True)
    con = duckdb.connect()
    con.execute(f"""
        CREATE TABLE t AS SELECT *,
          CAST(purchase_date AS TIMESTAMPTZ) AS purchased,
          CAST(NULLIF(delivered_at, '') AS TIMESTAMPTZ) AS delivered,
          CAST(COALESCE(NULLIF(price, ''), '0') AS DECIMAL(18, 3)) * CAST(COALESCE(NULLIF(quantity, ''), '1') AS INT)
            AS amount
        FROM read_csv('{ledger}', header = true, all_varchar = true)""")
    con.execute("SET TimeZone = 'UTC'")
    con.execute(f"""
        COPY (
          WITH counted AS (SELECT * FROM t WHERE environment = 'Production' AND verification_status <> 'invalid'),
          dup AS (SELECT 'DUPLICATE_RECORD' AS code, transaction_id, user_id, product_id, amount, currency FROM counted
                  WHERE transaction_id IN (SELECT transaction_id FROM counted GROUP BY 1 HAVING COUNT(*) > 1)),
          shr AS (SELECT 'SHARED_TRANSACTION', transaction_id, user_id, product_id, amount, currency FROM counted
                  WHERE transaction_id IN (SELECT transaction_id FROM counted GROUP BY 1
                                           HAVING COUNT(DISTINCT user_id) > 1)),
          und AS (SELECT 'UNDELIVERED', transaction_id, user_id, product_id, amount, currency FROM t
                  WHERE verification_status = 'verified' AND delivered IS NULL
                    AND purchased < make_timestamptz({as_of_ms} * 1000) - INTERVAL 1 HOUR)
          SELECT * FROM dup UNION ALL SELECT * FROM shr UNION ALL SELECT * FROM und ORDER BY 1, 2, 3
        ) TO '{out}/discrepancies.csv' (HEADER)""")
    con.execute(f"""
        COPY (
          WITH counted AS (SELECT * FROM t WHERE environment = 'Production' AND verification_status <> 'invalid'),
          first AS (SELECT * FROM counted QUALIFY row_number() OVER (PARTITION BY transaction_id
                                                                     ORDER BY purchased, record_id) = 1)
          SELECT strftime(purchased, '%Y-%m-%d') AS date, product_id, currency,
                 SUM(CAST(COALESCE(NULLIF(quantity, ''), '1') AS INT)) AS units, SUM(amount) AS gross
          FROM first GROUP BY ALL ORDER BY ALL
        ) TO '{out}/revenue_daily.csv' (HEADER)""")
    print("duckdb: done")


if __name__ == "__main__":
    mode, ledger, out, as_of = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    {"pandas": run_pandas, "duckdb": run_duckdb}[mode](ledger, out, as_of)
