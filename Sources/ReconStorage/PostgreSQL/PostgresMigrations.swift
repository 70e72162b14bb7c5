/// The store's migrations (``Schema/migrations``) as PostgreSQL runs them: the same tables, columns, keys, indexes and
/// triggers, in PostgreSQL's own words, each statement as written.
///
/// What differs from SQLite's: integers are `BIGINT`; every text column sorts and compares byte by byte (`COLLATE
/// "C"`, SQLite's `BINARY`), whatever the database's collation; an `INTEGER PRIMARY KEY` is an identity column; a
/// trigger is a PL/pgSQL function and a row trigger calling it; `WITHOUT ROWID` and foreign keys (off in SQLite's store)
/// are not said; and the keys PostgreSQL keeps otherwise (`issue34-distribution-keys`). The triggers are said once for
/// both engines (``StoreTrigger``). A new migration is written in
/// both: ``Schema/migrations`` and here, under the same name; the migration tests hold the two stores to the same
/// reports.
package enum PostgresMigrations {
    /// The statements of the migration `name`, in order.
    package static func statements(of name: String) -> [String] {
        byName[name] ?? []
    }

    /// Whether every one of ``Schema/migrations`` is written for PostgreSQL, and nothing else is.
    package static var coversSchema: Bool {
        Set(byName.keys) == Set(Schema.migrations.map(\.name))
    }

    private static let byName: [String: [String]] = Dictionary(
        grouping: part1 + part2 + part3 + part4 + part5 + part6, by: \.migration
    ).mapValues { $0.flatMap(\.statements) }

    /// The store's tables, as the migrations leave them: a database that holds one the store did not create is refused.
    package static let tables = [
        "app_transaction_links", "commitment_periods", "consents", "consumption_answers", "deferred_revenue_shown",
        "deferred_revenue_shown_report", "detection_state", "dirty_originals", "dirty_report_days",
        "dirty_transactions", "entitlements", "evidence", "financial_report_rows", "financial_reports",
        "finding_users", "findings", "findings_recorded", "import_files", "ledger_events", "notification_sweeps",
        "notifications", "original_findings", "original_results", "payment_regions", "payment_summaries", "products",
        "receipt_checks", "receipts", "recognition_months", "recognition_sales", "rejected_rows",
        "renewal_commitments", "revenue_lines", "revenue_parts", "revenue_schedule_written", "revenue_shown",
        "revenue_shown_by_transaction", "revenue_shown_lines", "run_lock", "runs", "sales_report_days",
        "sales_report_rows", "same_purchase_shown", "subscription_statuses", "transaction_findings",
        "transaction_results", "transactions", "verifications",
    ]
}
