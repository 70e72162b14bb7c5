import AppleData
import ReconModel

/// The kept revenue parts ordered by the line they add to (CONTRACT §5 "Incremental reports").
///
/// A report that judges some transactions again adds up again every line they touch, from all of that line's parts.
/// Kept by transaction, a line's parts lay scattered over the whole table: a re-export whose changed rows are spread
/// over the ledger read nearly every part through the line index, one page each. Kept by line, a line's parts are
/// one range; the transaction index (with the amounts `revenue_changes.csv` compares) serves the reads by transaction.
extension Schema {
    /// Rebuilds `revenue_parts` in line order with its transaction index (a store that has not kept results yet
    /// rebuilds an empty table).
    package static let revenuePartsByLine = """
        \(create("revenue_parts", as: "revenue_parts_by_line_new", distributed: false))
        INSERT INTO revenue_parts_by_line_new SELECT * FROM revenue_parts
            ORDER BY day, product_id NULLS FIRST, currency NULLS FIRST, transaction_id NULLS FIRST, seq;
        DROP TABLE revenue_parts;
        ALTER TABLE revenue_parts_by_line_new RENAME TO revenue_parts;
        \(revenuePartsByTransaction)
        """

    /// The parts' reads by transaction: what changed, and the amounts `revenue_changes.csv` compares, without a
    /// lookup in the table.
    package static let revenuePartsByTransaction =
        "CREATE INDEX revenue_parts_by_transaction ON revenue_parts(transaction_id, seq, gross_milli, refunds_milli);"
}
