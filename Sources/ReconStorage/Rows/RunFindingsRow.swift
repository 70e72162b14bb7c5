import AppleData
import Foundation
import ReconModel

/// A row of this run's findings (`temp.run_findings`, aliased `r`) as a ``FindingHistory``.
package enum RunFindingsRow {
    package static let table = "run_findings"

    /// Joins a finding's users in the table: a character no user id holds, so each comes back as it was.
    package static let userSeparator = "\u{1F}"
    private static let userSeparatorByte = Array(userSeparator.utf8)[0]

    /// The columns, for the table aliased `r`; `$1` is the run's as-of.
    package static let columns = """
        r.code AS code, r.transaction_id AS transaction_id, r.original_transaction_id AS original_transaction_id,
        r.user_ids AS user_ids, r.product_id AS product_id, r.environment AS environment,
        r.amount_milli AS amount_milli, r.currency AS currency, r.detail AS detail, r.record_ids AS record_ids,
        r.receipt_id AS receipt_id, r.subject AS subject,
        CASE WHEN r.known_first_seen_at < $1 THEN r.known_first_seen_at ELSE $1 END AS first_seen_at, $1 AS last_seen_at,
        r.known_first_seen_at IS NULL AS is_new
        """

    /// The finding with its history: first seen when the store first saw it open, else now.
    ///
    /// Nil for a code this program does not know (none is spooled).
    package static func read(_ statement: any StoreStatement) -> FindingHistory? {
        let row = SQLRow(statement, table: table)
        let users = row.text("user_ids")
        // Split on the separator's one byte: a control character is a character of its own, so this
        // is the split by character, without breaking the text into characters.
        let userIDs =
            users.isEmpty
            ? []
            : users.utf8.split(separator: userSeparatorByte, omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
        guard let finding = FindingsRow.finding(row, userIDs: userIDs) else { return nil }
        return FindingHistory(
            finding: finding, firstSeenAt: row.int64("first_seen_at"), lastSeenAt: row.int64("last_seen_at"),
            resolvedAt: nil, isNew: row.int64("is_new") != 0)
    }
}
