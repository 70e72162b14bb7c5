import AppleData
import ReconModel

/// The ledger's secondary indexes.
extension Schema {
    /// Secondary indexes on `transactions`, dropped and rebuilt around a bulk first load: the
    /// unique record id and original transaction id (the upsert's key, which includes the column the ledger is
    /// distributed by: ``distributionKeys``) first, then the read paths', then the source position
    /// with the row's content hash (a re-import of an unchanged file skips its unchanged rows).
    package static let transactionIndexes: [(name: String, sql: String)] =
        [
            (
                "transactions_by_record",
                """
                CREATE UNIQUE INDEX IF NOT EXISTS transactions_by_record ON transactions(record_id, original_transaction_id)
                """
            )
        ] + v1TransactionIndexes + [
            (
                "transactions_by_source",
                """
                CREATE INDEX IF NOT EXISTS transactions_by_source ON transactions(source_file_id, source_line, row_hash)
                """
            )
        ]

    /// The secondary indexes of the first schema (`v1-ledger`), as it created them.
    static let v1TransactionIndexes: [(name: String, sql: String)] = [
        (
            "transactions_by_transaction_id",
            "CREATE INDEX IF NOT EXISTS transactions_by_transaction_id ON transactions(transaction_id)"
        ),
        (
            "transactions_by_original_id",
            "CREATE INDEX IF NOT EXISTS transactions_by_original_id ON transactions(original_transaction_id)"
        ),
        ("transactions_by_user", "CREATE INDEX IF NOT EXISTS transactions_by_user ON transactions(user_id)"),
        (
            "transactions_by_receipt",
            "CREATE INDEX IF NOT EXISTS transactions_by_receipt ON transactions(receipt_id) WHERE receipt_id IS NOT NULL"
        ),
        (
            "transactions_pending",
            "CREATE INDEX IF NOT EXISTS transactions_pending ON transactions(purchase_date) WHERE verification_status = 'pending'"
        ),
    ]
}
