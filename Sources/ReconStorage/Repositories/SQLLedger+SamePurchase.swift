import AppleData
import ReconModel

/// The transaction ids that are one purchase (``SamePurchaseIndex``), read in two passes over indexes.
extension SQLLedger {
    /// Every transaction id that shares a purchase with another: a non-consumable's ids under one original
    /// transaction id (a non-consumable by the catalog or by Apple's `type`), and a subscription period's ids under
    /// one `web_order_line_item_id` (Apple writes `0` for purchases that are no subscription: never a link).
    ///
    /// Memory: the ids of such purchases only (restores and second devices), not the ledger.
    ///
    /// No correlated subquery: Citus plans none beside a CTE; each step is a set the next joins.
    public func samePurchaseIndex() throws(StoreError) -> SamePurchaseIndex {
        let booked = """
            CASE WHEN t.verification_status != 'invalid' AND t.environment = 'Production' THEN t.purchase_date END
            """
        let nonConsumable = "SELECT product_id FROM products WHERE type = 'non-consumable'"
        let originals = try db.prepare(
            """
            WITH ids(o, tx, booked_at) AS (
                SELECT t.original_transaction_id, t.transaction_id, \(booked)
                FROM transactions t WHERE t.product_id IN (\(nonConsumable))
                UNION ALL
                SELECT e.original_transaction_id, e.transaction_id, NULL FROM evidence e
                WHERE e.original_transaction_id IS NOT NULL
                    AND (e.product_type = 'Non-Consumable' OR e.product_id IN (\(nonConsumable)))
            ),
            shared(o) AS (SELECT o FROM ids GROUP BY o HAVING COUNT(DISTINCT tx) > 1)
            SELECT o, tx, MIN(booked_at) FROM ids WHERE o IN (SELECT o FROM shared) GROUP BY o, tx ORDER BY o NULLS FIRST, tx NULLS FIRST
            """)
        var members: [SamePurchaseIndex.Member] = []
        while try originals.step() {
            members.append(
                SamePurchaseIndex.Member(
                    link: .originalTransaction(originals.text(0)), transactionID: originals.text(1),
                    bookedAt: originals.optionalInt64(2)))
        }
        let periods = try db.prepare(
            """
            WITH ids(w, tx) AS (
                SELECT DISTINCT web_order_line_item_id, transaction_id FROM evidence
                WHERE web_order_line_item_id IS NOT NULL AND web_order_line_item_id NOT IN ('', '0')
            ),
            shared(w) AS (SELECT w FROM ids GROUP BY w HAVING COUNT(*) > 1),
            members(w, tx) AS (SELECT w, tx FROM ids WHERE w IN (SELECT w FROM shared)),
            booked(tx, booked_at) AS (
                SELECT t.transaction_id, MIN(\(booked)) FROM transactions t
                WHERE t.transaction_id IN (SELECT tx FROM members) GROUP BY t.transaction_id)
            SELECT m.w, m.tx, b.booked_at FROM members m LEFT JOIN booked b ON b.tx = m.tx ORDER BY m.w NULLS FIRST, m.tx NULLS FIRST
            """)
        while try periods.step() {
            members.append(
                SamePurchaseIndex.Member(
                    link: .webOrderLineItem(periods.text(0)), transactionID: periods.text(1),
                    bookedAt: periods.optionalInt64(2)))
        }
        return SamePurchaseIndex(members)
    }
}
