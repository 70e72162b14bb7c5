/// The backend's entitlements in the store (CONTRACT §1.8).
extension LedgerWriter {
    /// Upserts one entitlement by user and original transaction id.
    func upsert(_ e: Entitlement, source: String, line: Int) throws(StoreError) {
        let statement: SQLiteStatement
        if let entitlementStatement {
            statement = entitlementStatement
        } else {
            statement = try store.db.prepare(
                """
                INSERT INTO entitlements (user_id, original_transaction_id, product_id, expires_at, environment,
                    updated_at, source_file, source_line, imported_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                ON CONFLICT (user_id, original_transaction_id) DO UPDATE SET product_id = ?3, expires_at = ?4,
                    environment = ?5, updated_at = ?6, source_file = ?7, source_line = ?8, imported_at = ?9
                """)
            entitlementStatement = statement
        }
        try statement.run([
            .text(e.userID), .text(e.originalTransactionID), .text(e.productID), .integer(e.expiresAt),
            .text(e.environment.rawValue), e.updatedAt.map { .integer($0) } ?? .null, .text(source),
            .integer(Int64(line)), .integer(now),
        ])
    }
}

extension ReconStore {
    /// Every entitlement, by original transaction id, then user.
    public func entitlements() throws(StoreError) -> [Entitlement] {
        let stmt = try db.prepare(
            """
            SELECT user_id, original_transaction_id, product_id, expires_at, environment, updated_at
            FROM entitlements ORDER BY original_transaction_id, user_id
            """)
        var rows: [Entitlement] = []
        while try stmt.step() {
            let row = SQLiteRow(stmt, table: "entitlements")
            rows.append(
                Entitlement(
                    userID: row.text("user_id"), originalTransactionID: row.text("original_transaction_id"),
                    productID: row.text("product_id"), expiresAt: row.int64("expires_at"),
                    environment: row.environment("environment") ?? .production,
                    updatedAt: row.optionalInt64("updated_at")))
        }
        return rows
    }

    /// Whether any entitlement is in the store.
    public func hasEntitlements() throws(StoreError) -> Bool {
        let stmt = try db.prepare("SELECT EXISTS (SELECT 1 FROM entitlements) AS present")
        return try stmt.step() && SQLiteRow(stmt, table: "entitlements").int64("present") == 1
    }
}
