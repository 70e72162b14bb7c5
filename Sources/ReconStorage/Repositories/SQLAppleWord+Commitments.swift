import AppleData
import ReconModel

/// The 12-month commitments of monthly billing plans: each charge's `commitmentInfo` as Apple signed it, and the
/// renewal info's word on what follows the commitment.
extension SQLAppleWord {
    /// Every commitment statement signed and learned by `asOf` (the verification that brought it learned by then).
    package func commitmentStatements(asOf: Int64) throws(StoreError) -> [CommitmentStatement] {
        let stmt = try db.prepare(
            """
            SELECT c.original_transaction_id AS original_transaction_id, c.transaction_id AS transaction_id,
                c.product_id AS product_id, c.environment AS environment, c.billing_plan_type AS billing_plan_type,
                c.billing_period_number AS billing_period_number, c.total_billing_periods AS total_billing_periods,
                c.commitment_price_milli AS commitment_price_milli,
                c.commitment_expires_date AS commitment_expires_date, c.purchase_date AS purchase_date,
                c.expires_date AS expires_date, c.price_milli AS price_milli, c.currency AS currency,
                c.revocation_date AS revocation_date, c.revocation_type AS revocation_type,
                c.revocation_percentage AS revocation_percentage, c.signed_date AS signed_date
            FROM commitment_periods c LEFT JOIN verifications v ON v.id = c.verification_id
            WHERE COALESCE(c.signed_date, c.recorded_at) <= $1
                AND COALESCE(v.learned_at, v.verified_at, c.recorded_at) <= $1
            ORDER BY c.original_transaction_id NULLS FIRST, c.transaction_id NULLS FIRST, COALESCE(c.signed_date, 0) NULLS FIRST, c.id
            """)
        try stmt.bind([.integer(asOf)])
        var result: [CommitmentStatement] = []
        while try stmt.step() {
            let row = SQLRow(stmt, table: "commitment_periods")
            result.append(
                CommitmentStatement(
                    originalTransactionID: row.text("original_transaction_id"),
                    transactionID: row.text("transaction_id"), productID: row.optionalText("product_id"),
                    environment: row.environment("environment"),
                    terms: CommitmentTerms(
                        billingPlanType: row.optionalText("billing_plan_type"),
                        billingPeriodNumber: row.optionalInt("billing_period_number"),
                        totalBillingPeriods: row.optionalInt("total_billing_periods"),
                        commitmentPrice: row.optionalInt64("commitment_price_milli"),
                        commitmentExpiresDate: row.optionalInt64("commitment_expires_date")),
                    purchaseDate: row.optionalInt64("purchase_date"), expiresDate: row.optionalInt64("expires_date"),
                    price: row.money("price_milli", "currency"), revocationDate: row.optionalInt64("revocation_date"),
                    revocationType: row.optionalText("revocation_type"),
                    revocationPercentage: row.optionalInt("revocation_percentage"),
                    signedDate: row.optionalInt64("signed_date")))
        }
        return result
    }

    /// The latest renewal commitment of each original transaction id learned by `asOf`.
    package func renewalCommitments(asOf: Int64) throws(StoreError) -> [String: RenewalCommitment] {
        let stmt = try db.prepare(
            """
            SELECT original_transaction_id, environment, signed_date, auto_renew_status, commitment_auto_renew_status,
                is_in_billing_retry_period
            FROM renewal_commitments WHERE signed_date <= $1 AND learned_at <= $1
            ORDER BY original_transaction_id NULLS FIRST, signed_date NULLS FIRST
            """)
        try stmt.bind([.integer(asOf)])
        var result: [String: RenewalCommitment] = [:]
        while try stmt.step() {
            let row = SQLRow(stmt, table: "renewal_commitments")
            let original = row.text("original_transaction_id")
            result[original] = RenewalCommitment(
                originalTransactionID: original,
                environment: StoreEnvironment(raw: row.text("environment")), signedDate: row.int64("signed_date"),
                autoRenewStatus: row.optionalInt("auto_renew_status"),
                commitmentAutoRenewStatus: row.optionalInt("commitment_auto_renew_status"),
                isInBillingRetryPeriod: row.optionalInt64("is_in_billing_retry_period").map { $0 != 0 })
        }
        return result
    }
}

/// Prepared inserts of what an evidence entry says beyond the evidence table: its app transaction id and its
/// commitment.
package final class AppleWordEvidenceWriter {
    private let link: any StoreStatement
    private let commitment: any StoreStatement

    package init(store: ReconStore) throws(StoreError) {
        link = try store.db.prepare(
            RowInsert(
                into: "app_transaction_links",
                ["app_transaction_id", "transaction_id", "original_transaction_id", "signed_date"],
                onConflict: .doNothing(target: ["app_transaction_id", "transaction_id"])))
        commitment = try store.db.prepare(
            """
            INSERT INTO commitment_periods (original_transaction_id, transaction_id, product_id, environment,
                billing_plan_type, billing_period_number, total_billing_periods, commitment_price_milli,
                commitment_expires_date, purchase_date, expires_date, price_milli, currency, revocation_date,
                revocation_type, revocation_percentage, signed_date, verification_id, recorded_at)
            SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19
            WHERE NOT EXISTS (
                SELECT 1 FROM commitment_periods c
                WHERE c.original_transaction_id = $1 AND c.transaction_id = $2 AND c.signed_date IS NOT DISTINCT FROM $17
                    AND c.revocation_date IS NOT DISTINCT FROM $14)
            """)
    }

    /// Keeps the entry's app transaction id and commitment, when it states them; a statement already kept (the same
    /// transaction, signed date and revocation: a receipt decoded again, a notification swept again) is kept once, as
    /// first learned.
    package func insert(_ e: EvidenceEntry, environment: StoreEnvironment?, verificationID: Int64?, at time: Int64)
        throws(StoreError)
    {
        let original = e.originalTransactionID ?? e.transactionID
        if let app = e.appTransactionID, !app.isEmpty {
            try link.run([.text(app), .text(e.transactionID), .text(original), .optionalInteger(e.signedDate)])
        }
        guard let terms = e.commitment else { return }
        try commitment.run([
            .text(original), .text(e.transactionID), .optionalText(e.productID),
            .optionalText((e.environment ?? environment)?.rawValue), .optionalText(terms.billingPlanType),
            .optionalInteger(terms.billingPeriodNumber.map(Int64.init)),
            .optionalInteger(terms.totalBillingPeriods.map(Int64.init)), .optionalInteger(terms.commitmentPrice),
            .optionalInteger(terms.commitmentExpiresDate), .optionalInteger(e.purchaseDate),
            .optionalInteger(e.expiresDate), .optionalInteger(e.price?.milliunits), .optionalText(e.price?.currency),
            .optionalInteger(e.cancellationDate), .optionalText(e.revocationType),
            .optionalInteger(e.revocationPercentage.map(Int64.init)), .optionalInteger(e.signedDate),
            .optionalInteger(verificationID), .integer(time),
        ])
    }
}

@available(*, unavailable)
extension AppleWordEvidenceWriter: Sendable {}
