import AppleData
import ReconModel

/// What notifications without a transaction say (CONTRACT §7): kept beside the notification, read by as-of.
extension SQLAppleWord {
    /// Keeps what a newly kept notification says beyond its transaction.
    package func recordNotificationWords(_ n: VerifiedNotification, learnedAt: Int64) throws(StoreError) {
        try db.prepare(
            """
            UPDATE notifications SET external_purchase_id = $1, app_transaction_id = $2, consumption_request_reason = $3,
                learned_at = $4
            WHERE notification_uuid = $5
            """
        ).run([
            .optionalText(n.externalPurchaseToken?.externalPurchaseId), .optionalText(n.appTransactionID),
            .optionalText(n.consumptionRequestReason), .integer(learnedAt), .text(n.uuid),
        ])
        if let commitment = n.renewal?.renewalCommitment {
            try recordRenewalCommitment(commitment, learnedAt: learnedAt)
        }
    }

    /// Keeps a renewal info's word on a commitment; the same statement kept twice is one.
    package func recordRenewalCommitment(_ r: RenewalCommitment, learnedAt: Int64) throws(StoreError) {
        try db.prepare(
            RowInsert(
                into: "renewal_commitments",
                [
                    "original_transaction_id", "environment", "signed_date", "auto_renew_status",
                    "commitment_auto_renew_status", "is_in_billing_retry_period", "learned_at",
                ], onConflict: .doNothing(target: ["original_transaction_id", "environment", "signed_date"]))
        ).run([
            .text(r.originalTransactionID), .text(r.environment.rawValue), .integer(r.signedDate),
            .optionalInteger(r.autoRenewStatus.map(Int64.init)),
            .optionalInteger(r.commitmentAutoRenewStatus.map(Int64.init)),
            .optionalInteger(r.isInBillingRetryPeriod.map { $0 ? 1 : 0 }), .integer(learnedAt),
        ])
    }

    /// The condition on `notifications n` (joined with its verification `v`) of a notification signed and learned by
    /// `?1`; one kept before the store noted `learned_at` on notifications counts as learned when its verification was.
    private static let knownBy =
        "n.signed_date <= $1 AND COALESCE(n.learned_at, v.learned_at, v.verified_at, n.recorded_at) <= $1"

    /// `notifications n` with its verification `v`.
    private static let notificationsAndVerifications =
        "notifications n LEFT JOIN verifications v ON v.id = n.verification_id"

    /// The kept notifications of ``AppleNotice/types`` signed and learned by `asOf`.
    package func notices(asOf: Int64) throws(StoreError) -> [AppleNotice] {
        let types = AppleNotice.types.map { "'\($0)'" }.joined(separator: ", ")
        let stmt = try db.prepare(
            """
            SELECT n.notification_uuid AS notification_uuid, n.notification_type AS notification_type,
                n.subtype AS subtype, n.signed_date AS signed_date, n.environment AS environment,
                n.transaction_id AS transaction_id, n.original_transaction_id AS original_transaction_id,
                n.product_id AS product_id, n.external_purchase_id AS external_purchase_id,
                n.app_transaction_id AS app_transaction_id, n.consumption_request_reason AS consumption_request_reason
            FROM \(Self.notificationsAndVerifications)
            WHERE n.notification_type IN (\(types)) AND \(Self.knownBy)
            ORDER BY n.signed_date NULLS FIRST, n.notification_uuid
            """)
        try stmt.bind([.integer(asOf)])
        var result: [AppleNotice] = []
        while try stmt.step() {
            let row = SQLRow(stmt, table: "notifications")
            result.append(
                AppleNotice(
                    uuid: row.text("notification_uuid"), type: row.text("notification_type"),
                    subtype: row.optionalText("subtype"), signedDate: row.int64("signed_date"),
                    environment: row.environment("environment"), transactionID: row.optionalText("transaction_id"),
                    originalTransactionID: row.optionalText("original_transaction_id"),
                    productID: row.optionalText("product_id"),
                    externalPurchaseID: row.optionalText("external_purchase_id"),
                    appTransactionID: row.optionalText("app_transaction_id"),
                    consumptionRequestReason: row.optionalText("consumption_request_reason")))
        }
        return result
    }

    /// How many notifications of each type the store learned by `asOf`.
    package func notificationCountsByType(asOf: Int64) throws(StoreError) -> [String: Int] {
        let stmt = try db.prepare(
            """
            SELECT n.notification_type AS notification_type, COUNT(*) AS notifications
            FROM \(Self.notificationsAndVerifications)
            WHERE \(Self.knownBy) GROUP BY n.notification_type ORDER BY n.notification_type
            """)
        try stmt.bind([.integer(asOf)])
        var counts: [String: Int] = [:]
        while try stmt.step() {
            let row = SQLRow(stmt, table: "notifications")
            counts[row.text("notification_type")] = Int(row.int64("notifications"))
        }
        return counts
    }

    /// The ledger's users whose Apple evidence carries `appTransactionID`, sorted.
    package func users(appTransactionID: String) throws(StoreError) -> [String] {
        let stmt = try db.prepare(
            """
            SELECT DISTINCT t.user_id AS user_id FROM app_transaction_links l
            JOIN transactions t ON t.transaction_id = l.transaction_id OR t.original_transaction_id = l.original_transaction_id
            WHERE l.app_transaction_id = $1 ORDER BY t.user_id NULLS FIRST
            """)
        try stmt.bind([.text(appTransactionID)])
        var users: [String] = []
        while try stmt.step() { users.append(SQLRow(stmt, table: "transactions").text("user_id")) }
        return users
    }

    /// The app transaction ids Apple's evidence states for any of `transactionIDs`, sorted.
    package func appTransactionIDs(transactionIDs: [String]) throws(StoreError) -> [String] {
        var found: Set<String> = []
        try db.forEachChunk(of: transactionIDs) { marks, values throws(StoreError) in
            let stmt = try db.prepare(
                "SELECT app_transaction_id FROM app_transaction_links WHERE transaction_id IN (\(marks))")
            try stmt.bind(values)
            while try stmt.step() {
                found.insert(SQLRow(stmt, table: "app_transaction_links").text("app_transaction_id"))
            }
        }
        return found.sorted()
    }

    /// The ledger's users of an original transaction id, sorted.
    package func users(originalTransactionID: String) throws(StoreError) -> [String] {
        let stmt = try db.prepare(
            "SELECT DISTINCT user_id FROM transactions WHERE original_transaction_id = $1 ORDER BY user_id NULLS FIRST")
        try stmt.bind([.text(originalTransactionID)])
        var users: [String] = []
        while try stmt.step() { users.append(SQLRow(stmt, table: "transactions").text("user_id")) }
        return users
    }

    /// Every transaction Apple's evidence showed with `appTransactionID`.
    package func transactions(appTransactionID: String) throws(StoreError) -> [(
        transactionID: String, originalID: String
    )] {
        let stmt = try db.prepare(
            """
            SELECT transaction_id, original_transaction_id FROM app_transaction_links WHERE app_transaction_id = $1
            ORDER BY original_transaction_id NULLS FIRST, transaction_id NULLS FIRST
            """)
        try stmt.bind([.text(appTransactionID)])
        var result: [(transactionID: String, originalID: String)] = []
        while try stmt.step() {
            let row = SQLRow(stmt, table: "app_transaction_links")
            result.append((row.text("transaction_id"), row.text("original_transaction_id")))
        }
        return result
    }

    /// What the ledger and Apple's evidence say of one transaction.
    package func ledgerFacts(transactionID: String) throws(StoreError) -> LedgerFacts {
        let stmt = try db.prepare(
            """
            SELECT user_id, product_id, delivered_at, price_milli, currency, quantity FROM transactions
            WHERE transaction_id = $1 ORDER BY record_id NULLS FIRST
            """)
        try stmt.bind([.text(transactionID)])
        var users: Set<String> = []
        var product: String?
        var delivered: Int64?
        var amount: Money?
        while try stmt.step() {
            let row = SQLRow(stmt, table: "transactions")
            users.insert(row.text("user_id"))
            product = product ?? row.optionalText("product_id")
            if let at = row.optionalInt64("delivered_at") { delivered = min(delivered ?? at, at) }
            if amount == nil, let unit = row.money("price_milli", "currency") {
                let quantity = row.optionalInt64("quantity") ?? 1
                let (total, overflow) = unit.milliunits.multipliedReportingOverflow(by: quantity)
                amount = overflow ? nil : Money(milliunits: total, currency: unit.currency)
            }
        }
        let evidence = try db.prepare(
            """
            SELECT price_milli, currency, product_id FROM evidence
            WHERE transaction_id = $1 AND price_milli IS NOT NULL AND currency IS NOT NULL
            ORDER BY COALESCE(signed_date, 0) DESC NULLS LAST, id DESC LIMIT 1
            """)
        try evidence.bind([.text(transactionID)])
        var applePrice: Money?
        if try evidence.step() {
            let row = SQLRow(evidence, table: "evidence")
            applePrice = row.money("price_milli", "currency")
            product = product ?? row.optionalText("product_id")
        }
        return LedgerFacts(
            userIDs: users.sorted(), productID: product, deliveredAt: delivered, amount: amount,
            applePrice: applePrice)
    }
}
