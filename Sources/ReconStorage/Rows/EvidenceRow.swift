import AppleData
import Foundation
import ReconModel

/// An `evidence` row (joined with its receipt, aliased `r`) as an ``EvidenceRecord``: the only
/// place stored evidence becomes a value.
///
/// Offline app-receipt evidence stored before `receipt_creation_date` existed reads its receipt's creation date
/// from the receipt's check.
package enum EvidenceRow {
    package static let table = "evidence"

    /// The columns, for `evidence e LEFT JOIN receipts r`.
    package static let columns = """
        e.transaction_id AS transaction_id, e.original_transaction_id AS original_transaction_id,
        e.product_id AS product_id, e.quantity AS quantity, e.purchase_date AS purchase_date,
        e.original_purchase_date AS original_purchase_date, e.expires_date AS expires_date,
        e.cancellation_date AS cancellation_date, e.cancellation_reason AS cancellation_reason,
        e.revocation_type AS revocation_type, e.revocation_percentage AS revocation_percentage,
        e.web_order_line_item_id AS web_order_line_item_id, e.price_milli AS price_milli, e.currency AS currency,
        e.storefront AS storefront, e.product_type AS product_type, e.entry_environment AS entry_environment,
        e.entry_bundle_id AS entry_bundle_id, e.app_account_token AS app_account_token,
        e.in_app_ownership_type AS in_app_ownership_type, e.source AS source, e.receipt_id AS receipt_id,
        r.format AS receipt_format, e.environment AS environment, e.bundle_id AS bundle_id, e.signature AS signature,
        e.apple_status AS apple_status, r.user_id AS uploader_user_id, e.recorded_at AS recorded_at,
        e.signed_date AS signed_date, e.is_upgraded AS is_upgraded, e.is_trial_period AS is_trial_period,
        e.is_in_intro_offer_period AS is_in_intro_offer_period, e.offer_type AS offer_type,
        e.offer_discount_type AS offer_discount_type,
        COALESCE(
            e.receipt_creation_date,
            CASE WHEN e.source = 'offline' AND r.format = 'app-receipt' THEN
                (SELECT c.creation_date FROM receipt_checks c WHERE c.receipt_id = e.receipt_id) END)
            AS receipt_creation_date,
        (SELECT COALESCE(v.learned_at, v.verified_at) FROM verifications v WHERE v.id = e.verification_id)
            AS learned_at
        """

    /// - Throws: ``StoreError/unknownValue(table:column:value:)`` for a source, signature status or
    ///   receipt format this program does not know.
    package static func read(_ statement: any StoreStatement) throws(StoreError) -> EvidenceRecord {
        let row = SQLRow(statement, table: table)
        let receipt = SQLRow(statement, table: ReceiptsRow.table)
        let entry = EvidenceEntry(
            transactionID: row.text("transaction_id"),
            originalTransactionID: row.optionalText("original_transaction_id"),
            productID: row.optionalText("product_id"), quantity: row.optionalInt("quantity"),
            purchaseDate: row.optionalInt64("purchase_date"),
            originalPurchaseDate: row.optionalInt64("original_purchase_date"),
            expiresDate: row.optionalInt64("expires_date"), cancellationDate: row.optionalInt64("cancellation_date"),
            cancellationReason: row.optionalText("cancellation_reason"),
            revocationType: row.optionalText("revocation_type"),
            revocationPercentage: row.optionalInt("revocation_percentage"),
            webOrderLineItemID: row.optionalText("web_order_line_item_id"), price: row.money("price_milli", "currency"),
            storefront: row.optionalText("storefront"), productType: row.optionalText("product_type"),
            environment: row.environment("entry_environment"), bundleID: row.optionalText("entry_bundle_id"),
            appAccountToken: row.optionalText("app_account_token"),
            inAppOwnershipType: row.optionalText("in_app_ownership_type"),
            signedDate: row.optionalInt64("signed_date"),
            isUpgraded: row.optionalInt64("is_upgraded").map { $0 != 0 },
            isTrialPeriod: row.optionalInt64("is_trial_period").map { $0 != 0 },
            isInIntroOfferPeriod: row.optionalInt64("is_in_intro_offer_period").map { $0 != 0 },
            offerType: row.optionalInt("offer_type"), offerDiscountType: row.optionalText("offer_discount_type"),
            receiptCreationDate: row.optionalInt64("receipt_creation_date"))
        var record = EvidenceRecord(
            entry: entry, source: try row.value("source", as: EvidenceSource.self),
            receiptID: row.optionalText("receipt_id"),
            receiptFormat: try receipt.optionalValue("receipt_format", as: ReceiptFormat.self),
            environment: row.environment("environment"), bundleID: row.optionalText("bundle_id"),
            signature: try row.value("signature", as: SignatureStatus.self),
            appleStatus: row.optionalInt("apple_status"),
            uploaderUserID: receipt.optionalText("uploader_user_id"), recordedAt: row.int64("recorded_at"))
        record.learnedAt = row.optionalInt64("learned_at")
        return record
    }
}
