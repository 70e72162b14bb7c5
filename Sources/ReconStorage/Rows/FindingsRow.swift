import AppleData
import Foundation
import ReconModel

/// A `findings` row (aliased `f`) as a ``FindingHistory``: the only place a findings row becomes
/// a value.
package enum FindingsRow {
    package static let table = "findings"

    /// The columns, for a table aliased `f`.
    package static let columns = """
        f.code AS code, f.transaction_id AS transaction_id, f.original_transaction_id AS original_transaction_id,
        f.user_ids AS user_ids, f.product_id AS product_id, f.environment AS environment,
        f.amount_milli AS amount_milli, f.currency AS currency,
        \(AgedDetailSQL.detail(asOf: lastSeen, prefix: "f.")) AS detail, f.record_ids AS record_ids,
        f.receipt_id AS receipt_id, f.first_seen_at AS first_seen_at, \(lastSeen) AS last_seen_at,
        f.resolved_at AS resolved_at, f.fingerprint AS fingerprint, f.subject AS subject
        """

    /// When the finding was last seen: an open one, by the latest recording.
    ///
    /// See ``Schema/findingsRecorded``. A detail that states an age is worded at that moment.
    private static let lastSeen = """
        CASE WHEN f.resolved_at IS NULL THEN COALESCE((SELECT at FROM findings_recorded), f.last_seen_at)
            ELSE f.last_seen_at END
        """

    /// The finding's fingerprint.
    package static func fingerprint(_ statement: any StoreStatement) -> String {
        SQLRow(statement, table: table).text("fingerprint")
    }

    /// The finding with its history; nil for a code this program no longer knows (a finding
    /// retired from the contract (docs/CONTRACT.md §4) stays in old stores and is not shown).
    package static func read(_ statement: any StoreStatement) -> FindingHistory? {
        let row = SQLRow(statement, table: table)
        guard let finding = finding(row, userIDs: row.text("user_ids").split(separator: " ").map(String.init)) else {
            return nil
        }
        return FindingHistory(
            finding: finding, firstSeenAt: row.int64("first_seen_at"), lastSeenAt: row.int64("last_seen_at"),
            resolvedAt: row.optionalInt64("resolved_at"), isNew: false)
    }

    /// The finding of a row with the columns of this table (also this run's findings, ``RunFindingsRow``), with its
    /// users as that table keeps them; nil for a code this program does not know.
    package static func finding(_ row: SQLRow, userIDs: [String]) -> Finding? {
        guard let code = FindingCode(rawValue: row.text("code")) else { return nil }
        return Finding(
            code: code, transactionID: row.text("transaction_id"),
            originalTransactionID: row.optionalText("original_transaction_id"), userIDs: userIDs,
            productID: row.optionalText("product_id"), environment: row.environment("environment"),
            amount: row.money("amount_milli", "currency"), detail: row.text("detail"),
            recordIDs: row.text("record_ids").split(separator: " ").map(String.init),
            receiptID: row.optionalText("receipt_id"), subject: row.optionalText("subject"))
    }
}
