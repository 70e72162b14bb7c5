import AppleData
import ReconModel

/// The backend's entitlements in the store (CONTRACT §1.8).
extension SQLLedgerWriter {
    /// Upserts one entitlement by user and original transaction id.
    package func upsert(_ e: Entitlement, source: String, line: Int) throws(StoreError) {
        let statement: any StoreStatement
        if let entitlementStatement {
            statement = entitlementStatement
        } else {
            statement = try store.db.prepare(
                RowInsert(
                    into: "entitlements",
                    [
                        "user_id", "original_transaction_id", "product_id", "expires_at", "environment", "updated_at",
                        "source_file", "source_line", "imported_at",
                    ],
                    onConflict: .update(
                        target: ["user_id", "original_transaction_id"],
                        set:
                            "product_id = excluded.product_id, expires_at = excluded.expires_at, environment = excluded.environment, updated_at = excluded.updated_at, source_file = excluded.source_file, source_line = excluded.source_line, imported_at = excluded.imported_at"
                    )))
            entitlementStatement = statement
        }
        try statement.run([
            .text(e.userID), .text(e.originalTransactionID), .text(e.productID), .integer(e.expiresAt),
            .text(e.environment.rawValue), e.updatedAt.map { .integer($0) } ?? .null, .text(source),
            .integer(Int64(line)), .integer(now),
        ])
    }
}

extension SQLEntitlements {
    /// Every entitlement, by original transaction id, then user.
    public func entitlements() throws(StoreError) -> [Entitlement] {
        let stmt = try db.prepare(
            """
            SELECT user_id, original_transaction_id, product_id, expires_at, environment, updated_at
            FROM entitlements ORDER BY original_transaction_id NULLS FIRST, user_id NULLS FIRST
            """)
        var rows: [Entitlement] = []
        while try stmt.step() {
            let row = SQLRow(stmt, table: "entitlements")
            rows.append(
                Entitlement(
                    userID: row.text("user_id"), originalTransactionID: row.text("original_transaction_id"),
                    productID: row.text("product_id"), expiresAt: row.int64("expires_at"),
                    environment: row.environment("environment") ?? .production,
                    updatedAt: row.optionalInt64("updated_at")))
        }
        return rows
    }

    /// The entitlements of a user or of any of the subscriptions, by original transaction id, then user.
    public func entitlements(userID: String?, originalTransactionIDs: [String]) throws(StoreError) -> [Entitlement] {
        var found: [String: Entitlement] = [:]
        let asked: [(condition: (String) -> String, values: [String])] = [
            ({ "user_id IN (\($0))" }, userID.map { [$0] } ?? []),
            ({ "original_transaction_id IN (\($0))" }, originalTransactionIDs),
        ]
        try db.forEachChunk(matching: asked) { condition, values throws(StoreError) in
            let stmt = try db.prepare(
                """
                SELECT user_id, original_transaction_id, product_id, expires_at, environment, updated_at
                FROM entitlements WHERE \(condition)
                """)
            try stmt.bind(values)
            while try stmt.step() {
                let row = SQLRow(stmt, table: "entitlements")
                let e = Entitlement(
                    userID: row.text("user_id"), originalTransactionID: row.text("original_transaction_id"),
                    productID: row.text("product_id"), expiresAt: row.int64("expires_at"),
                    environment: row.environment("environment") ?? .production,
                    updatedAt: row.optionalInt64("updated_at"))
                found[e.originalTransactionID + "|" + e.userID] = e
            }
        }
        return found.keys.sorted().compactMap { found[$0] }
    }

    /// Whether any entitlement is in the store.
    public func hasEntitlements() throws(StoreError) -> Bool {
        let stmt = try db.prepare("SELECT EXISTS (SELECT 1 FROM entitlements) AS present")
        return try stmt.step() && SQLRow(stmt, table: "entitlements").int64("present") == 1
    }
}

/// Apple's subscription statuses in the store: the latest answer per original transaction id and environment.
extension SQLEntitlements {
    /// Keeps Apple's answer, replacing an earlier one for the same subscription and environment.
    public func recordSubscriptionStatus(_ s: SubscriptionStatus) throws(StoreError) {
        try db.prepare(
            RowInsert(
                into: "subscription_statuses",
                [
                    "original_transaction_id", "environment", "status", "product_id", "expires_date",
                    "grace_period_expires_date", "auto_renew_status", "revocation_date", "price_milli", "currency",
                    "learned_at",
                ],
                onConflict: .update(
                    target: ["original_transaction_id", "environment"],
                    set:
                        "status = excluded.status, product_id = excluded.product_id, expires_date = excluded.expires_date, grace_period_expires_date = excluded.grace_period_expires_date, auto_renew_status = excluded.auto_renew_status, revocation_date = excluded.revocation_date, price_milli = excluded.price_milli, currency = excluded.currency, learned_at = excluded.learned_at"
                ))
        ).run([
            .text(s.originalTransactionID), .text(s.environment.rawValue), .integer(Int64(s.status.rawValue)),
            s.productID.map { .text($0) } ?? .null, s.expiresDate.map { .integer($0) } ?? .null,
            s.gracePeriodExpiresDate.map { .integer($0) } ?? .null, s.autoRenew.map { .integer($0 ? 1 : 0) } ?? .null,
            s.revocationDate.map { .integer($0) } ?? .null, s.price.map { .integer($0.milliunits) } ?? .null,
            s.price.map { .text($0.currency) } ?? .null, .integer(s.learnedAt),
        ])
    }

    /// Apple's answers the store learned by `asOf`, by original transaction id and environment.
    public func subscriptionStatuses(learnedBy asOf: Int64) throws(StoreError) -> [SubscriptionStatus] {
        let stmt = try db.prepare(
            """
            SELECT * FROM subscription_statuses WHERE learned_at <= $1 ORDER BY original_transaction_id NULLS FIRST, environment NULLS FIRST
            """)
        try stmt.bind([.integer(asOf)])
        return try Self.statuses(stmt)
    }

    /// Apple's answers about any of the subscriptions, by original transaction id and environment.
    public func subscriptionStatuses(originalTransactionIDs: [String]) throws(StoreError) -> [SubscriptionStatus] {
        var rows: [SubscriptionStatus] = []
        try db.forEachChunk(of: originalTransactionIDs) { marks, values throws(StoreError) in
            let stmt = try db.prepare(
                """
                SELECT * FROM subscription_statuses WHERE original_transaction_id IN (\(marks))
                ORDER BY original_transaction_id NULLS FIRST, environment NULLS FIRST
                """)
            try stmt.bind(values)
            rows += try Self.statuses(stmt)
        }
        return rows
    }

    /// The statuses a bound statement over `subscription_statuses` reads.
    private static func statuses(_ stmt: any StoreStatement) throws(StoreError) -> [SubscriptionStatus] {
        var rows: [SubscriptionStatus] = []
        while try stmt.step() {
            let row = SQLRow(stmt, table: "subscription_statuses")
            guard let code = SubscriptionStatus.Code(rawValue: Int(row.int64("status"))) else { continue }
            rows.append(
                SubscriptionStatus(
                    originalTransactionID: row.text("original_transaction_id"),
                    environment: row.environment("environment") ?? .production, status: code,
                    productID: row.optionalText("product_id"), expiresDate: row.optionalInt64("expires_date"),
                    gracePeriodExpiresDate: row.optionalInt64("grace_period_expires_date"),
                    autoRenew: row.optionalInt64("auto_renew_status").map { $0 != 0 },
                    revocationDate: row.optionalInt64("revocation_date"), price: row.money("price_milli", "currency"),
                    learnedAt: row.int64("learned_at")))
        }
        return rows
    }
}

extension SQLEntitlements {
    /// Every piece of evidence under one original transaction id (its renewals, restores and upgrades), in the order
    /// it was recorded.
    public func evidence(originalTransactionID: String) throws -> [EvidenceRecord] {
        let stmt = try db.prepare(
            """
            SELECT \(EvidenceRow.columns) FROM evidence e LEFT JOIN receipts r ON r.receipt_id = e.receipt_id
            WHERE e.original_transaction_id = $1 ORDER BY e.recorded_at, e.id
            """)
        try stmt.bind([.text(originalTransactionID)])
        var result: [EvidenceRecord] = []
        while try stmt.step() { result.append(try EvidenceRow.read(stmt)) }
        return result
    }
}
