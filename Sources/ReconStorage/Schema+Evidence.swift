import AppleData
import ReconModel

/// Later columns of `evidence` (CONTRACT §3).
extension Schema {
    /// What Apple says of the offer a purchase was made under, and when the receipt an entry was read from was made.
    ///
    /// The offer: verifyReceipt `is_trial_period` and `is_in_intro_offer_period`, app receipt fields 1713 and 1719,
    /// JWS `offerType` and `offerDiscountType`. The receipt's creation date: app receipt field 12, verifyReceipt
    /// `receipt.receipt_creation_date_ms`; a receipt speaks as of that date. NULL for evidence stored before.
    package static let evidenceOffersAndReceiptDate = """
        ALTER TABLE evidence ADD COLUMN is_trial_period INTEGER;
        ALTER TABLE evidence ADD COLUMN is_in_intro_offer_period INTEGER;
        ALTER TABLE evidence ADD COLUMN offer_type INTEGER;
        ALTER TABLE evidence ADD COLUMN offer_discount_type TEXT;
        ALTER TABLE evidence ADD COLUMN receipt_creation_date INTEGER;
        """

    /// One subscription period's transactions on every device share its `web_order_line_item_id`: the index ties
    /// a restore or a second device's transaction id to the purchase (``LedgerRepository/samePurchaseIndex()``).
    package static let evidenceByWebOrderLineItem = """
        CREATE INDEX evidence_by_web_order_line_item ON evidence(web_order_line_item_id);
        """
}
